#include "CServerSupport.h"
// Any C library header defines __GLIBC__ on glibc (through <features.h>). Without one the
// check below was false everywhere, and from session 14 to 16 the server set nothing: the
// page faults it was meant to stop were all still there (BENCHMARKS.md, "One reader").
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int reorder_server_keep_freed_memory(int mmap_threshold, int trim_threshold, int top_pad) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1
        && mallopt(M_TOP_PAD, top_pad) == 1;
}
#else
int reorder_server_keep_freed_memory(int mmap_threshold, int trim_threshold, int top_pad) {
    (void)mmap_threshold;
    (void)trim_threshold;
    (void)top_pad;
    return 0;
}
#endif
