//! Iteration domains: nvFuser's IterDomains transformed by split, merge, resize and swizzle.
