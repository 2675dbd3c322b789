#include "CServerSupport.h"

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
