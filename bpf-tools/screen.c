// SPDX-License-Identifier: GPL-2.0
/*
 * screen.c - the terminal side of the full-screen tools (see screen.h):
 * a frame buffer written in one go (in full-screen mode cut to the
 * terminal's height, so that a tall frame never scrolls), the alternate
 * screen, raw keys, and the terminal's size after a resize.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "screen.h"

static struct termios saved_tio;
static bool tio_saved;
static bool full_screen;	/* between term_setup() and term_restore() */
static char scr[65536];
static size_t scr_len;
int term_cols = 120, term_rows = 40;
volatile sig_atomic_t resized;

void sp(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (scr_len >= sizeof(scr))
		return;
	va_start(ap, fmt);
	n = vsnprintf(scr + scr_len, sizeof(scr) - scr_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		scr_len += (size_t)n < sizeof(scr) - scr_len ? (size_t)n : sizeof(scr) - scr_len - 1;
}

/*
 * A frame taller than the terminal would scroll its top off the screen:
 * keep its first term_rows lines (the last without its newline).
 */
static void clip_frame(void)
{
	size_t i;
	int lines = 0;

	for (i = 0; i < scr_len; i++) {
		if (scr[i] != '\n' || ++lines < term_rows)
			continue;
		scr_len = i;
		sp("\033[0m");
		return;
	}
}

void screen_flush(void)
{
	size_t off = 0;
	ssize_t w;

	if (full_screen)
		clip_frame();
	while (off < scr_len) {
		w = write(STDOUT_FILENO, scr + off, scr_len - off);
		if (w <= 0 && errno != EINTR)
			break;
		if (w > 0)
			off += w;
	}
	scr_len = 0;
}

void term_restore(void)
{
	full_screen = false;
	if (!tio_saved)
		return;
	sp("\033[0m\033[?25h\033[?1049l");
	screen_flush();
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	tio_saved = false;
}

void term_setup(void)
{
	struct termios t;

	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved_tio) == 0) {
		tio_saved = true;
		t = saved_tio;
		t.c_lflag &= ~(ICANON | ECHO);
		t.c_cc[VMIN] = 0;
		t.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &t);
	}
	sp("\033[?1049h\033[?25l\033[H\033[2J");
	screen_flush();
	full_screen = true;
}

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

void term_watch_resize(void)
{
	struct sigaction sa = { .sa_handler = on_winch };

	/* no SA_RESTART: poll() returns at once to redraw */
	sigaction(SIGWINCH, &sa, NULL);
}

void term_size(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row) {
		term_cols = ws.ws_col;
		term_rows = ws.ws_row;
	}
}
