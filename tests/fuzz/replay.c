/* replay.c - main() for the harnesses when libFuzzer is not linked (gcc,
 * `make check`): each argument is a file, or a directory whose files are
 * run in name order, and every one goes once through
 * LLVMFuzzerTestOneInput. Arguments starting with '-' are libFuzzer's
 * (-runs=0) and ignored, so tests/fuzz/replay.sh runs either main the same
 * way. Built with the sanitizers, a report aborts: the test fails. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int main(int argc, char **argv);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		if (f)
			fclose(f);
		return -1;
	}
	/* Exactly len bytes, as libFuzzer gives them: ASan sees a read past
	 * the end (malloc(0) may be NULL, so an empty input gets one byte). */
	buf = malloc(len > 0 ? (size_t)len : 1);
	if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

static int run_dir(const char *dir, int *n)
{
	struct dirent **list = NULL;
	int k = scandir(dir, &list, NULL, alphasort), r = 0;

	if (k < 0) {
		fprintf(stderr, "replay: %s: cannot list\n", dir);
		return -1;
	}
	for (int i = 0; i < k; i++) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (list[i]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			r |= run_file(path);
			(*n)++;
		}
		free(list[i]);
	}
	free(list);
	return r;
}

int main(int argc, char **argv)
{
	int n = 0, r = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (argv[i][0] == '-')
			continue;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			r |= run_dir(argv[i], &n);
		} else {
			r |= run_file(argv[i]);
			n++;
		}
	}
	printf("replay: %d inputs\n", n);
	return r != 0;
}
