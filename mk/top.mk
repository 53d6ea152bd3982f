# irqlat --top's bash completion.

COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

install: install-completion

install-completion:
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 completion/irqlat.bash $(DESTDIR)$(COMPLETIONDIR)/irqlat

.PHONY: install-completion
