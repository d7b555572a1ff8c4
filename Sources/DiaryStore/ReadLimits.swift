/// The largest file or row the stores read for each kind of object, checked (by `fstat` on the
/// open file, or `length()` in SQL) before a byte is read: a crafted or damaged vault must not
/// make `diary` allocate without bound (a sparse 1 TiB `vault.journal` would abort every command).
///
/// Each limit is well above what `diary` writes, so only damage meets it.
package enum ReadLimits {
    /// A header holds at most 255 key slots of 76 bytes (docs/FORMAT.md §3): under 20 KiB.
    package static let header = 64 << 10
    /// An entry's text is at most 8 MiB, with at most 255 tags of 200 bytes and a 1 KiB
    /// source; padding adds at most 12.5% and sealing 46 bytes: under 10 MiB.
    package static let entry = 16 << 20
    /// The index root and an index page grow with the number of entries; this is the limit a
    /// store has always had.
    package static let index = DurableFile.maxReadSize
    /// A journal holds one whole multi-file change (an import stores all its entries in one).
    /// It is read whole and then split into blobs, so it costs twice its size in memory: this
    /// keeps that under the 1 GiB that SECURITY.md promises. A larger change is refused when
    /// written (`FileStore`), so this limit never refuses a journal `diary` wrote.
    package static let journal = 512 << 20
}
