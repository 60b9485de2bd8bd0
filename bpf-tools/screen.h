/* SPDX-License-Identifier: GPL-2.0 */
/*
 * screen.h - the full-screen views of f2fs-top and f2fs-segmap: plain ANSI
 * escapes and termios, no curses.  A frame is built with sp() into one
 * buffer and written at once by screen_flush(); term_setup() switches to
 * the alternate screen with keys unbuffered and unechoed, term_restore()
 * undoes it (call it before any error message); after term_watch_resize()
 * a SIGWINCH sets resized, and term_size() reads the new size.
 */
#ifndef F2FS_SCREEN_H
#define F2FS_SCREEN_H

#include <signal.h>

void sp(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void screen_flush(void);
void term_setup(void);
void term_restore(void);
void term_watch_resize(void);
void term_size(void);
extern int term_cols, term_rows;	/* 120 x 40 until term_size() */
extern volatile sig_atomic_t resized;

#endif
