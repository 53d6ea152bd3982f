# make install: everything irqlatd puts on a machine, under $(DESTDIR)$(PREFIX): the two
# binaries and their man pages; the systemd unit (generated so ExecStart= names the installed
# binary), the journal message catalog, the sysusers.d file of the socket's group and the
# configuration example (docs/systemd.md); the optional socket unit of the Prometheus endpoint
# (docs/metrics.md); irqlat's bash completion. Also systemd/irqlatd.service for this PREFIX,
# which `make` (all) writes into the source tree.
UNITDIR ?= $(PREFIX)/lib/systemd/system
CATALOGDIR ?= $(PREFIX)/lib/systemd/catalog
DOCDIR ?= $(PREFIX)/share/doc/irqlatd
SYSCONFDIR_IRQLATD := /etc/irqlatd
# no: leave `journalctl --update-catalog` to the caller (tests installing into a temp PREFIX)
UPDATE_CATALOG ?= yes
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
# no: leave `systemd-sysusers` (the socket's group, irqlat) to the caller (a package)
CREATE_GROUP ?= yes
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

# systemd/irqlatd.service for this PREFIX, so that `systemd-analyze security --offline=yes
# systemd/irqlatd.service` works after `make` (generated; not in git)
all: systemd/irqlatd.service

systemd/irqlatd.service: systemd/irqlatd.service.in mk/install.mk
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@CONFIG@|$(SYSCONFDIR_IRQLATD)/irqlatd.conf|g' $< > $@.tmp && mv $@.tmp $@

install: all install-metrics-socket install-systemd install-completion
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8
	install -m 0755 $(BUILD)/irqlatd $(DESTDIR)$(SBINDIR)/irqlatd
	install -m 0755 $(BUILD)/irqlat $(DESTDIR)$(BINDIR)/irqlat
	install -m 0644 docs/irqlat.1 $(DESTDIR)$(MANDIR)/man1/irqlat.1
	install -m 0644 docs/irqlatd.8 $(DESTDIR)$(MANDIR)/man8/irqlatd.8

# journalctl reads catalogs from /usr/lib/systemd/catalog and /usr/local/lib/systemd/catalog,
# and systemd units from /usr/lib/systemd/system and /usr/local/lib/systemd/system: the
# same $(PREFIX)/lib layout works for PREFIX=/usr and PREFIX=/usr/local.
# The unit is generated here, not in $(BUILD): ExecStart= must follow the PREFIX of this
# install, whatever an earlier build used.
install-systemd: systemd/irqlatd.service.in
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(CATALOGDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SYSUSERSDIR)
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@CONFIG@|$(SYSCONFDIR_IRQLATD)/irqlatd.conf|g' $< > $(DESTDIR)$(UNITDIR)/irqlatd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/irqlatd.service
	install -m 0644 docs/irqlatd.catalog $(DESTDIR)$(CATALOGDIR)/irqlatd.catalog
	install -m 0644 docs/irqlatd.conf.example $(DESTDIR)$(DOCDIR)/irqlatd.conf.example
	install -m 0644 docs/systemd.md $(DESTDIR)$(DOCDIR)/systemd.md
	install -m 0644 systemd/irqlatd.sysusers $(DESTDIR)$(SYSUSERSDIR)/irqlatd.conf
	@if [ "$(UPDATE_CATALOG)" != yes ]; then :; \
	elif [ -n "$(DESTDIR)" ]; then \
		echo "install: in the target system, run journalctl --update-catalog so journalctl -x explains irqlatd's entries"; \
	elif command -v journalctl >/dev/null; then \
		journalctl --update-catalog \
		|| echo "install: journalctl --update-catalog failed; run it by hand so journalctl -x explains irqlatd's entries"; fi
	@if [ "$(CREATE_GROUP)" != yes ]; then :; \
	elif [ -n "$(DESTDIR)" ]; then \
		echo "install: in the target system, run systemd-sysusers irqlatd.conf: the unit needs the group irqlat"; \
	elif command -v systemd-sysusers >/dev/null; then \
		systemd-sysusers $(SYSUSERSDIR)/irqlatd.conf \
		|| echo "install: systemd-sysusers failed; create the group by hand (groupadd --system irqlat): the unit needs it"; \
	else echo "install: create the group irqlat (groupadd --system irqlat): the unit needs it"; fi
	@echo "install: then: systemctl daemon-reload && systemctl enable --now irqlatd"

# the Prometheus endpoint's socket unit (--metrics, socket activation), not enabled by
# install: docs/metrics.md says how (a drop-in adds Sockets= to the service)
install-metrics-socket: systemd/irqlatd-metrics.socket
	install -d $(DESTDIR)$(UNITDIR)
	install -m 0644 systemd/irqlatd-metrics.socket $(DESTDIR)$(UNITDIR)/irqlatd-metrics.socket
	install -d $(DESTDIR)$(DOCDIR)
	install -m 0644 docs/metrics.md $(DESTDIR)$(DOCDIR)/metrics.md

# irqlat's bash completion
install-completion:
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 completion/irqlat.bash $(DESTDIR)$(COMPLETIONDIR)/irqlat

.PHONY: install install-systemd install-metrics-socket install-completion
