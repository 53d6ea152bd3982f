# irqlat --top: the ncurses screen, and the bash completion.
EXTRA_CLIENT_SRCS += src/top.c
CLIENT_LDLIBS += $(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw)
# The Makefile expands CLIENT_SRCS with := before this fragment is included, so
# EXTRA_CLIENT_SRCS alone does not reach the link: name the object as a prerequisite too
# ($^ drops duplicates, so this stays right once the Makefile expands it later).
$(BUILD)/irqlat: $(call obj,src/top.c)

COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

install: install-completion

install-completion:
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 completion/irqlat.bash $(DESTDIR)$(COMPLETIONDIR)/irqlat

.PHONY: install-completion
