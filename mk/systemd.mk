# systemd integration: the unit (generated so ExecStart= names the installed binary), the
# journal message catalog and the configuration example. docs/systemd.md explains them.
UNITDIR ?= $(PREFIX)/lib/systemd/system
CATALOGDIR ?= $(PREFIX)/lib/systemd/catalog
DOCDIR ?= $(PREFIX)/share/doc/irqlatd
SYSCONFDIR_IRQLATD := /etc/irqlatd

all: $(BUILD)/irqlatd.service

$(BUILD)/irqlatd.service: systemd/irqlatd.service.in Makefile mk/systemd.mk | $(BUILD)/.dir
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@CONFIG@|$(SYSCONFDIR_IRQLATD)/irqlatd.conf|g' $< > $@.tmp && mv $@.tmp $@

install: install-systemd

# journalctl reads catalogs from /usr/lib/systemd/catalog and /usr/local/lib/systemd/catalog,
# and systemd units from /usr/lib/systemd/system and /usr/local/lib/systemd/system: the
# same $(PREFIX)/lib layout works for PREFIX=/usr and PREFIX=/usr/local.
install-systemd: $(BUILD)/irqlatd.service
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(CATALOGDIR) $(DESTDIR)$(DOCDIR)
	install -m 0644 $(BUILD)/irqlatd.service $(DESTDIR)$(UNITDIR)/irqlatd.service
	install -m 0644 docs/irqlatd.catalog $(DESTDIR)$(CATALOGDIR)/irqlatd.catalog
	install -m 0644 docs/irqlatd.conf.example $(DESTDIR)$(DOCDIR)/irqlatd.conf.example
	install -m 0644 docs/systemd.md $(DESTDIR)$(DOCDIR)/systemd.md
	@if [ -n "$(DESTDIR)" ]; then \
		echo "install: in the target system, run journalctl --update-catalog so journalctl -x explains irqlatd's entries"; \
	elif command -v journalctl >/dev/null; then \
		journalctl --update-catalog \
		|| echo "install: journalctl --update-catalog failed; run it by hand so journalctl -x explains irqlatd's entries"; fi
	@echo "install: then: systemctl daemon-reload && systemctl enable --now irqlatd"

.PHONY: install-systemd
