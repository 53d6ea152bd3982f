# Prometheus endpoint (--metrics, socket activation): src/daemon/metrics.c (libmicrohttpd),
# the optional socket unit. docs/metrics.md explains them.

install: install-metrics-socket

# not enabled by install: docs/metrics.md says how (a drop-in adds Sockets= to the service)
install-metrics-socket: systemd/irqlatd-metrics.socket
	install -d $(DESTDIR)$(UNITDIR)
	install -m 0644 systemd/irqlatd-metrics.socket $(DESTDIR)$(UNITDIR)/irqlatd-metrics.socket
	install -d $(DESTDIR)$(DOCDIR)
	install -m 0644 docs/metrics.md $(DESTDIR)$(DOCDIR)/metrics.md

.PHONY: install-metrics-socket
