import Foundation

/// The files and folders an export created, removed if it is interrupted: what it writes is
/// plaintext, and a folder left behind would refuse the next export (status 73).
///
/// A linked list of C strings, newest first: the main thread publishes a node only once it is
/// complete, and the handler walks it without allocating. Removed newest first, each folder
/// is empty by the time it is reached (what is in it was created, and remembered, after it).
extension SignalCleanup {
    /// Remembers `path`, just created by this process, to remove if interrupted. Only what the
    /// command created is remembered, so only that is removed.
    static func rememberCreated(_ path: String) {
        let node = UnsafeMutablePointer<CreatedPath>.allocate(capacity: 1)
        node.initialize(to: CreatedPath(path: strdup(path), next: createdPaths))
        createdPaths = node
    }

    /// Forgets every path remembered (the command finished: what it made is to stay).
    static func forgetCreated() {
        var node = createdPaths
        createdPaths = nil
        while let current = node {
            node = current.pointee.next
            free(current.pointee.path)
            current.deallocate()
        }
    }
}

struct CreatedPath {
    let path: UnsafeMutablePointer<CChar>?
    let next: UnsafeMutablePointer<CreatedPath>?
}

// Written by the main thread, read only by the handler.
nonisolated(unsafe) private var createdPaths: UnsafeMutablePointer<CreatedPath>? = nil

/// Removes the remembered paths, newest first: a file is unlinked, a folder (unlink fails
/// with EISDIR) removed once empty. A temporary file already renamed is simply not there.
/// Async-signal-safe: `unlink` and `rmdir` only.
func removeCreatedSignalSafe() {
    var node = createdPaths
    while let current = node {
        if let path = current.pointee.path, unlink(path) != 0 { rmdir(path) }
        node = current.pointee.next
    }
}
