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
    /// The largest attachment object (docs/FORMAT.md §7.6): that of a 4 GiB file, padded to
    /// 4.5 GiB, plus the 26-byte prefix and 17 bytes per 64 KiB chunk. Exactly the largest a
    /// valid record allows (`AttachmentObject.maximumStoredLength`; a test keeps them equal),
    /// since an attachment is streamed, never held.
    package static let attachment = 26 + (4 << 30) + (1 << 29) + 17 * (((4 << 30) + (1 << 29)) / 65536)
    /// The largest piece of an attachment the SQLite store keeps in one row (a stored chunk
    /// is at most 65553 bytes), so no row is copied into memory whole unless it is small.
    package static let attachmentRow = 1 << 20
}
