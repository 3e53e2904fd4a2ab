#ifndef HEAP_STATS_H
#define HEAP_STATS_H

#include <stddef.h>

/// The bytes the allocator has handed out and not had back: glibc's mallinfo2() uordblks + hblkhd
/// (the live heap, without free lists and fragmentation); 0 without glibc.
size_t heap_stats_bytes_in_use(void);

#endif
