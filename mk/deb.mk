# make deb: the Debian package (debian/, docs/packaging.md),
# $(BUILD)/deb/irqlatd_<version>_<arch>.deb, with dpkg-buildpackage -b -us -uc. make check-host
# builds it (tests/host/70-deb.t lints it and checks its contents), and so does make check-vm
# (the systemd guest installs it).
# dpkg-buildpackage writes into debian/ and into the parent folder, so it runs on a copy of
# the tree in $(BUILD)/deb/src/: the source tree and its parent get nothing. The copy holds
# what git would commit (tracked and untracked files, less the ignored ones), so uncommitted
# changes are packaged too.
IRQLAT_VERSION := $(shell scripts/version)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
DEB_DIR := $(BUILD)/deb
DEB := $(DEB_DIR)/irqlatd_$(IRQLAT_VERSION)_$(DEB_ARCH).deb
DEB_SRCS := $(shell git ls-files -c -o --exclude-standard 2>/dev/null | while read -r f; do [ -f "$$f" ] && echo "$$f"; done)

deb: $(DEB)
	@echo "deb: $(DEB)"

deb-deps:
	@scripts/install-deps deb

# The outer make's MAKEFLAGS would carry BUILD=, PREFIX= and the like into the package's own
# make: the package is built from the copy's defaults alone.
$(DEB): $(DEB_SRCS) | deb-deps
	@[ -n "$(DEB_SRCS)" ] || { echo "make deb: no file list (git ls-files): run it in a git work tree" >&2; exit 1; }
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src/irqlatd-$(IRQLAT_VERSION)
	printf '%s\n' $(DEB_SRCS) | tar -c -T - | tar -x -C $(DEB_DIR)/src/irqlatd-$(IRQLAT_VERSION)
	cd $(DEB_DIR)/src/irqlatd-$(IRQLAT_VERSION) && \
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u DESTDIR -u PREFIX -u SANITIZE \
		dpkg-buildpackage -b -us -uc -J2 >../../build.log 2>&1 || \
		{ tail -n 30 ../../build.log; echo "make deb: dpkg-buildpackage failed (log: $(DEB_DIR)/build.log)" >&2; exit 1; }
	mv $(DEB_DIR)/src/*.deb $(DEB_DIR)/src/*.changes $(DEB_DIR)/src/*.buildinfo $(DEB_DIR)/
	@[ -f $@ ] || { ls $(DEB_DIR); echo "make deb: dpkg-buildpackage made no $@" >&2; exit 1; }

.PHONY: deb deb-deps

# for tests/host/70-deb.t: the pkg-config modules the build links, whose -dev packages
# debian/control must list in Build-Depends (and for the host tests that link helpers
# against the daemon's objects)
deb-pkg-config-modules:
	@echo $(DAEMON_PKGS) $(CLIENT_PKGS)

.PHONY: deb-pkg-config-modules
