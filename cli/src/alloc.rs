//! The allocator: mimalloc (the `mimalloc` feature, on by default).
//!
//! A world-wide edit allocates and frees, per region file, buffers of its
//! size (the file, the copy kept to compare with, the new file, the file
//! read back) and, per chunk, its NBT. glibc's malloc hands such blocks back
//! to the kernel and faults fresh zeroed pages in for the next region. A
//! world-wide `set --level 1` on 64 regions took 6.85 + 1.00 CPU-s (user +
//! system) with glibc's defaults, 6.69 + 0.43 with glibc told to keep its
//! memory (`MALLOC_TRIM_THRESHOLD_`, `MALLOC_MMAP_THRESHOLD_`); mimalloc
//! keeps it without being told (`reports/cli.md`).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
