import DiaryStore

/// Writing to a descriptor the CLI holds (stdout, a pager's pipe, a file it made), through the
/// one loop the libraries use (`DurableFile.writeFully`), so that a short write, an interruption
/// or a write that makes no progress is handled alike everywhere.
package enum DescriptorWrite {
    /// Writes every byte of `bytes` to `fd`: nil when all were written, else the failure's
    /// errno (ENOSPC for a write that makes no progress).
    package static func all(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        DurableFile.writeFully(fd, bytes)
    }
}
