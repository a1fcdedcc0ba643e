/* What the compiled core needs of the system, for POSIX (Linux, macOS, the BSDs) and for
 * Windows: threads (pthreads or Windows threads), a monotonic clock, giving the processor
 * up, and bit counts (the compiler's builtins where it has them, else portable code).
 * Atomics are C11's <stdatomic.h> everywhere (MSVC: /std:c11 /experimental:c11atomics). */

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

typedef HANDLE thread_t;
#define THREAD_RESULT DWORD WINAPI
#define THREAD_DONE 0

static int thread_start(thread_t *thread, LPTHREAD_START_ROUTINE body, void *arg)
{
    *thread = CreateThread(NULL, 0, body, arg, 0, NULL);
    return *thread ? 0 : -1;
}

static void thread_join(thread_t thread)
{
    WaitForSingleObject(thread, INFINITE);
    CloseHandle(thread);
}

static void thread_yield(void) { SwitchToThread(); }

static double now_seconds(void)
{
    LARGE_INTEGER count, frequency;
    QueryPerformanceCounter(&count);
    QueryPerformanceFrequency(&frequency);
    return (double)count.QuadPart / (double)frequency.QuadPart;
}

#else
#include <pthread.h>
#include <sched.h>
#include <time.h>

typedef pthread_t thread_t;
#define THREAD_RESULT void *
#define THREAD_DONE NULL

static int thread_start(thread_t *thread, void *(*body)(void *), void *arg)
{
    return pthread_create(thread, NULL, body, arg) == 0 ? 0 : -1;
}

static void thread_join(thread_t thread) { pthread_join(thread, NULL); }

static void thread_yield(void) { sched_yield(); }

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
#endif

/* -- bit counts of one 64-bit word (ctz and clz of a nonzero word) ---------------------- */

#if (defined(__GNUC__) || defined(__clang__)) && !defined(CORE_PORTABLE_BITS)
static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int clz64(uint64_t x) { return __builtin_clzll(x); }
#else
/* Without the builtins (MSVC, whose __popcnt64 needs a processor with the instruction,
   or CORE_PORTABLE_BITS to test this code): the classic SWAR count. */
static inline int popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int ctz64(uint64_t x) { return popcount64((x & (0 - x)) - 1); }
static inline int clz64(uint64_t x)
{
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    return 64 - popcount64(x);
}
#endif
