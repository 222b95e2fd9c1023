/* fuzz.h - what the harnesses share: libFuzzer's entry points, the input as
 * a C string or as lines, and a private file to hold it for the parsers
 * that read files. Each harness is one .c file including this once; it
 * links with replay.c's main() (gcc, `make check`) or with libFuzzer's
 * (clang -fsanitize=fuzzer, `make fuzz`). */
#ifndef SL_FUZZ_H
#define SL_FUZZ_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Inputs past this are skipped: the parsers cap their inputs further down,
 * and megabytes of mutation per run only slow the fuzzer. */
#define FZ_MAX_INPUT (1u << 20)

static char fz_dir[64];

static void fz_cleanup(void)
{
	char path[96];

	if (fz_dir[0] == '\0')
		return;
	snprintf(path, sizeof(path), "%s/input", fz_dir);
	unlink(path);
	rmdir(fz_dir);
}

/* stdin from /dev/null: no parser may wait on a terminal (a kubeconfig
 * naming /dev/stdin, sbatch reading a script from stdin). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_RDONLY);

	(void)argc;
	(void)argv;
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	return 0;
}

/* The input with a NUL after it (and maybe inside). Caller frees. */
static inline char *fz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s == NULL)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The input written to DIR/input, DIR a 0700 directory of this process
 * (the config loader trusts no file that others can write). */
static inline const char *fz_file(const uint8_t *data, size_t size)
{
	static char path[96];
	FILE *f;

	if (fz_dir[0] == '\0') {
		snprintf(fz_dir, sizeof(fz_dir), "/tmp/sl-fuzz.XXXXXX");
		if (mkdtemp(fz_dir) == NULL)
			abort();
		atexit(fz_cleanup);
		snprintf(path, sizeof(path), "%s/input", fz_dir);
	}
	if ((f = fopen(path, "w")) == NULL)
		abort();
	if (size > 0 && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f) != 0)
		abort();
	return path;
}

#endif
