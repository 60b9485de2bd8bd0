// SPDX-License-Identifier: GPL-2.0
/*
 * jsoncheck - a strict JSON Lines validator for the guest (busybox has no
 * JSON parser).  Every input line must be one complete JSON object (RFC 8259
 * grammar: objects, arrays, strings with escapes, numbers, true/false/null).
 *
 *   jsoncheck < file              exit 0 if every line is valid, else 1
 *   jsoncheck -g a.b.c < file     also print the value at that path (keys
 *                                 joined by '.', array items by index) for
 *                                 each line that has it
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p, *want;
static char path[512];

static void ws(void)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
		p++;
}

static int value(size_t plen);

static int string(char *out, size_t outsz)
{
	size_t n = 0;

	if (*p++ != '"')
		return -1;
	while (*p != '"') {
		unsigned char c = *p++;

		if (c < 0x20)
			return -1;
		if (c == '\\') {
			c = *p++;
			if (c == 'u') {
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)*p++))
						return -1;
				c = '?';
			} else if (!strchr("\"\\/bfnrt", c) || !c) {
				return -1;
			}
		}
		if (out && n + 1 < outsz)
			out[n++] = c;
	}
	p++;
	if (out)
		out[n] = 0;
	return 0;
}

static int number(void)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (isdigit((unsigned char)*p))
		while (isdigit((unsigned char)*p))
			p++;
	else
		return -1;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return 0;
}

/* Append ".key" (or "key" at the top) to path; returns the new length. */
static size_t push(size_t plen, const char *key)
{
	int n = snprintf(path + plen, sizeof(path) - plen, "%s%s",
			 plen ? "." : "", key);

	return n < 0 || plen + n >= sizeof(path) ? sizeof(path) - 1 : plen + n;
}

static int container(size_t plen, char close)
{
	char key[256];
	int idx = 0;

	p++;
	ws();
	if (*p == close) {
		p++;
		return 0;
	}
	for (;;) {
		ws();
		if (close == '}') {
			if (string(key, sizeof(key)))
				return -1;
			ws();
			if (*p++ != ':')
				return -1;
		} else {
			snprintf(key, sizeof(key), "%d", idx++);
		}
		if (value(push(plen, key)))
			return -1;
		path[plen] = 0;
		ws();
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p++ != close)
			return -1;
		return 0;
	}
}

static int value(size_t plen)
{
	const char *start;
	int r;

	ws();
	start = p;
	if (*p == '{')
		r = container(plen, '}');
	else if (*p == '[')
		r = container(plen, ']');
	else if (*p == '"')
		r = string(NULL, 0);
	else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		r = (p += 4, 0);
	else if (!strncmp(p, "false", 5))
		r = (p += 5, 0);
	else
		r = number();
	path[plen] = 0;
	if (!r && want && !strcmp(path, want)) {
		if (*start == '"')
			printf("%.*s\n", (int)(p - start - 2), start + 1);
		else
			printf("%.*s\n", (int)(p - start), start);
	}
	return r;
}

int main(int argc, char **argv)
{
	static char line[1 << 20];
	int lineno = 0, bad = 0;

	if (argc == 3 && !strcmp(argv[1], "-g"))
		want = argv[2];
	else if (argc != 1) {
		fprintf(stderr, "usage: jsoncheck [-g PATH] < FILE\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		lineno++;
		p = line;
		path[0] = 0;
		ws();
		if (*p != '{' || value(0) || (ws(), *p)) {
			fprintf(stderr, "jsoncheck: line %d: invalid JSON near byte %ld\n",
				lineno, (long)(p - line));
			bad = 1;
		}
	}
	if (!lineno) {
		fprintf(stderr, "jsoncheck: no input\n");
		return 1;
	}
	return bad;
}
