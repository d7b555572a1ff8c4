import DiaryCrypto
import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension FuzzEntryPoints {
    /// `BackupReader`, the one reader that `verify`, `restore` and `--salvage` use (with its
    /// resynchronisation after damaged framing), then what they read with a key: the header as
    /// `header` checks it, and every sealed object opened under the fixed key as `verify`
    /// would. The input is also tried with a correct end record in place of its last 45 bytes
    /// (count and hash recomputed), so the path of a backup without damage is reached too.
    /// Accepted when the reader finds no damage and the header decodes.
    @discardableResult
    public static func backup(_ bytes: [UInt8]) -> Bool {
        let accepted = readBackup(bytes)
        let endLength = 1 + 4 + 8 + 32
        if bytes.count >= 10 + endLength {
            readBackup(withEndRecord(Array(bytes.dropLast(endLength))))
        }
        return accepted
    }

    /// Scans `bytes` as a backup file, then checks the header and every entry record read
    /// back; true when nothing was damaged and the header decodes (the records were sealed
    /// under a real vault's key, so they do not open under the fixed one).
    @discardableResult
    private static func readBackup(_ bytes: [UInt8]) -> Bool {
        guard let reader = memoryBackup(bytes), (try? reader.scan()) != nil else { return false }
        let headerAccepted = reader.header.map(header) ?? false
        let verifier = Verifier(vaultID: vaultID, keyRing: keyRing)
        let expected = verifier.expectations(sealedIndex: reader.index, indexPages: reader.indexPages)
        for record in reader.entries {
            guard let sealed = try? reader.payload(of: record) else { continue }
            _ = verifier.verdict(id: record.id, sealed: sealed, expectations: expected)
        }
        _ = Verifier.missing(expected, present: Set(reader.entries.map(\.id)))
        return reader.findings.isEmpty && headerAccepted
    }

    /// A `BackupReader` over `bytes` in a file on the memory file system, unlinked at once
    /// (the reader reads a file descriptor, as restore does); nil when the file cannot be
    /// made or the reader refuses the preamble.
    private static func memoryBackup(_ bytes: [UInt8]) -> BackupReader? {
        var template = Array("/dev/shm/diary-fuzz-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            close(fd)
            return nil
        }
        // The reader owns `fd` from here, and closes it when it refuses the file too.
        return try? BackupReader(descriptor: fd, url: URL(fileURLWithPath: "/fuzz"))
    }

    /// `body` followed by the end record a writer would put there: the number of records the
    /// framing shows after the 10-byte file header, and the hash of `body`.
    private static func withEndRecord(_ body: [UInt8]) -> [UInt8] {
        var records: UInt64 = 0
        var offset = 10
        while offset + 5 <= body.count {
            let length = body[(offset + 1)..<(offset + 5)].reduce(0) { $0 << 8 | Int($1) }
            offset += 5 + length
            records += 1
        }
        var w = ByteWriter()
        w.append(body)
        w.u8(BackupFile.endType)
        w.u32(8 + 32)
        w.u64(records)
        w.append(BLAKE2b.hash(body))
        return w.bytes
    }
}
