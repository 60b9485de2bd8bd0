// SPDX-License-Identifier: GPL-2.0
/*
 * ptyrun - run a command on a pseudo-terminal, type keys at given times,
 * and capture everything it draws (busybox has no script(1)).
 *
 *   ptyrun [-s COLSxROWS] [-k SECONDS:KEYS]... [-r SECONDS:COLSxROWS]...
 *          [-t TIMEOUT] -o OUT -- CMD [ARG...]
 *
 * -k sends KEYS (C escapes \n \e \x03 allowed) SECONDS after the start; -r
 * resizes the terminal then (the command gets SIGWINCH, as from a resized
 * terminal window; it counts as a key for the time reported below); -t
 * kills the command after TIMEOUT seconds (default 30, exit 124).  OUT gets
 * the raw output.  On stderr: "ptyrun: exit N, X.XXX s after the last key"
 * (or "killed by signal N").  Exit status: the command's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_KEYS 32

/* a key sequence to type, or (len < 0) a new window size */
static struct { double at; char keys[64]; int len; struct winsize ws; } keys[MAX_KEYS];
static int nkeys;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int unescape(const char *in, char *out, int max)
{
	int n = 0;

	while (*in && n < max) {
		if (*in != '\\') {
			out[n++] = *in++;
			continue;
		}
		in++;
		switch (*in) {
		case 'n': out[n++] = '\n'; in++; break;
		case 'r': out[n++] = '\r'; in++; break;
		case 'e': out[n++] = 27; in++; break;
		case 'x': out[n++] = (char)strtol(in + 1, (char **)&in, 16); break;
		case 0: break;
		default: out[n++] = *in++; break;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	struct winsize ws = { .ws_col = 120, .ws_row = 40 };
	double timeout = 30, start, last_key = 0, t;
	const char *out = NULL;
	int o, master, ofd, status = 0, next = 0, done = 0;
	char buf[4096], *colon;
	pid_t pid;

	while ((o = getopt(argc, argv, "s:k:r:t:o:")) != -1) {
		switch (o) {
		case 's':
			if (sscanf(optarg, "%hux%hu", &ws.ws_col, &ws.ws_row) != 2)
				goto usage;
			break;
		case 'k':
			colon = strchr(optarg, ':');
			if (!colon || nkeys == MAX_KEYS)
				goto usage;
			keys[nkeys].at = atof(optarg);
			keys[nkeys].len = unescape(colon + 1, keys[nkeys].keys, sizeof(keys[0].keys));
			nkeys++;
			break;
		case 'r':
			colon = strchr(optarg, ':');
			if (!colon || nkeys == MAX_KEYS ||
			    sscanf(colon + 1, "%hux%hu", &keys[nkeys].ws.ws_col,
				   &keys[nkeys].ws.ws_row) != 2)
				goto usage;
			keys[nkeys].at = atof(optarg);
			keys[nkeys].len = -1;
			nkeys++;
			break;
		case 't':
			timeout = atof(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (!out || optind >= argc)
		goto usage;
	/* keys and resizes in time order (a stable insertion sort) */
	for (o = 1; o < nkeys; o++) {
		__typeof__(keys[0]) k = keys[o];
		int j = o;

		for (; j > 0 && keys[j - 1].at > k.at; j--)
			keys[j] = keys[j - 1];
		keys[j] = k;
	}
	ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (ofd < 0 || master < 0 || grantpt(master) || unlockpt(master)) {
		perror("ptyrun");
		return 2;
	}
	pid = fork();
	if (pid == 0) {
		int slave;

		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0)
			_exit(127);
		ioctl(slave, TIOCSCTTY, 0);
		ioctl(slave, TIOCSWINSZ, &ws);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (slave > 2)
			close(slave);
		close(master);
		setenv("TERM", "xterm", 1);
		execvp(argv[optind], argv + optind);
		_exit(127);
	}
	start = now();
	while (!done) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		int wait_ms = 100;
		ssize_t n;

		t = now() - start;
		while (next < nkeys && keys[next].at <= t) {
			if (keys[next].len < 0) {
				/* the pty sends SIGWINCH to its foreground group */
				if (ioctl(master, TIOCSWINSZ, &keys[next].ws) < 0)
					perror("ptyrun: resize");
			} else if (write(master, keys[next].keys, keys[next].len) < 0) {
				perror("ptyrun: write");
			}
			last_key = now();
			next++;
		}
		if (t > timeout) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "ptyrun: timeout after %.1f s\n", timeout);
			return 124;
		}
		if (poll(&p, 1, wait_ms) > 0) {
			n = read(master, buf, sizeof(buf));
			if (n > 0) {
				if (write(ofd, buf, n) != n)
					perror("ptyrun: output");
				continue;
			}
		}
		if (waitpid(pid, &status, WNOHANG) == pid)
			done = 1;
	}
	/* what is left in the pty */
	fcntl(master, F_SETFL, O_NONBLOCK);
	{
		ssize_t n;

		while ((n = read(master, buf, sizeof(buf))) > 0)
			if (write(ofd, buf, n) != n)
				break;
	}
	t = now();
	if (WIFEXITED(status)) {
		fprintf(stderr, "ptyrun: exit %d, %.3f s after the last key\n",
			WEXITSTATUS(status), last_key ? t - last_key : -1.0);
		return WEXITSTATUS(status);
	}
	fprintf(stderr, "ptyrun: killed by signal %d\n", WTERMSIG(status));
	return 128 + WTERMSIG(status);
usage:
	fprintf(stderr, "usage: ptyrun [-s COLSxROWS] [-k SECONDS:KEYS]... [-r SECONDS:COLSxROWS]... [-t TIMEOUT] -o OUT -- CMD [ARG...]\n");
	return 2;
}
