/* sleeper.c - the job of `sluiced_baseline.sh --light`: `#!sleeper SECONDS`
 * (the kernel runs it as `sleeper SECONDS SCRIPT`, and the script is
 * ignored). It only sleeps, so what the run costs beyond it is the batch
 * system's. On x86-64 it is built without a C library: glibc's start-up
 * alone probes the CPU with cpuid, which traps to the hypervisor on a VM and
 * costs more than the rest of such a job (0.38 ms against 0.05 ms here). */
#if defined(__x86_64__) && defined(SLEEPER_NOLIBC)
struct ts { long s, ns; };

static long sc(long n, long a, long b)
{
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return r;
}

__attribute__((used)) void cmain(long *sp)
{
	const char *p = sp[0] > 1 ? (const char *)sp[2] : "0";
	struct ts t = {0, 0};
	long scale = 100000000;
	for (; *p >= '0' && *p <= '9'; p++)
		t.s = t.s * 10 + (*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && scale > 0; p++, scale /= 10)
			t.ns += (*p - '0') * scale;
	while (sc(35 /* nanosleep */, (long)&t, (long)&t) == -4 /* -EINTR */)
		;
	sc(231 /* exit_group */, 0, 0);
}
__asm__(".globl _start\n_start:\n\tmov %rsp, %rdi\n\tand $-16, %rsp\n\tcall cmain\n\thlt\n");
#else
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 0;
	struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
	while (nanosleep(&t, &t) != 0)
		;
	return 0;
}
#endif
