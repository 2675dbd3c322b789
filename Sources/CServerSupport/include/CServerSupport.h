#ifndef REORDER_SERVER_SUPPORT_H
#define REORDER_SERVER_SUPPORT_H

/// Asks the C allocator to keep freed memory for reuse instead of giving it back to the
/// system after every request: blocks below `mmap_threshold` bytes come from the heap, and the
/// heap keeps up to `trim_threshold` free bytes at its top, and when it does give memory back
/// it keeps `top_pad` bytes (glibc's default, 128 KiB, made every few batch requests fault
/// their pages in again). With glibc's defaults a batch answer (hundreds of KB) is a fresh
/// mapping each time, paid again in page faults.
/// Returns 1 when the allocator took every setting, 0 elsewhere (not glibc).
int reorder_server_keep_freed_memory(int mmap_threshold, int trim_threshold, int top_pad);

#endif
