# irqlat --top: the ncurses screen, and the bash completion.
EXTRA_CLIENT_SRCS += src/top.c
CLIENT_LDLIBS += $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)

COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

install: install-completion

install-completion:
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 completion/irqlat.bash $(DESTDIR)$(COMPLETIONDIR)/irqlat

.PHONY: install-completion
