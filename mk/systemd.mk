# systemd integration: the unit (generated so ExecStart= names the installed binary), the
# journal message catalog and the configuration example. docs/systemd.md explains them.
UNITDIR ?= $(PREFIX)/lib/systemd/system
CATALOGDIR ?= $(PREFIX)/lib/systemd/catalog
DOCDIR ?= $(PREFIX)/share/doc/irqlatd
SYSCONFDIR_IRQLATD := /etc/irqlatd
# no: leave `journalctl --update-catalog` to the caller (tests installing into a temp PREFIX)
UPDATE_CATALOG ?= yes
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
# no: leave `systemd-sysusers` (the socket's group, irqlat) to the caller (a package)
CREATE_GROUP ?= yes

# systemd/irqlatd.service for this PREFIX, so that `systemd-analyze security --offline=yes
# systemd/irqlatd.service` works after `make` (generated; not in git)
all: systemd/irqlatd.service

systemd/irqlatd.service: systemd/irqlatd.service.in mk/systemd.mk
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@CONFIG@|$(SYSCONFDIR_IRQLATD)/irqlatd.conf|g' $< > $@.tmp && mv $@.tmp $@

install: install-systemd

# the systemd guest installs the project into its image (tests/vm/systemd/20-irqlatd-unit.sh)
check-vm: $(BUILD)/irqlatd $(BUILD)/irqlat

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

.PHONY: install-systemd
