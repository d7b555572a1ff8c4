import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `attach`: creates a vault (`--store`, the test KDF unless `--kdf`) with one entry and
/// attaches `--file` to it through `Vault.attach`, read 64 KiB at a time as `diary attach`
/// reads a file. Each phase is its own process, so GNU time's peak memory is the phase's.
func benchAttach(_ o: Options) throws {
    let dir = URL(fileURLWithPath: o.required("vault"), isDirectory: true)
    guard let store = StoreKind(rawValue: o.required("store")) else { fail("unknown store") }
    let pass = try passphrase(fromFile: o.required("passphrase-file"))
    let vault = try Vault.create(at: dir, store: store, passphrase: pass, kdf: kdf(named: o.values["kdf"] ?? "test"))
    let entry = try vault.add(text: "An entry with a large attachment")
    let path = o.required("file")
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { fail("cannot open \(path)") }
    defer { close(fd) }
    let input = AttachmentInput(name: "large.bin", mediaType: "application/octet-stream") { buffer in
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { fail("cannot read \(path)") }
        return n
    }
    let cpuStart = cpuSeconds()
    let elapsed = try seconds { try vault.attach([input], to: entry.id) }
    emit(["attach_s": elapsed, "attach_cpu_s": cpuSeconds() - cpuStart])
}

/// `extract`: the one attachment of the vault's one entry streamed (`Vault.readAttachment`)
/// into a temporary file beside `--out`, fsynced and renamed, as `diary extract` writes it.
/// `verify`: the same read with the plaintext dropped: every chunk opened and checked.
func benchExtract(_ o: Options, keep: Bool) throws {
    let dir = URL(fileURLWithPath: o.required("vault"), isDirectory: true)
    let vault = try Vault.open(at: dir, passphrase: passphrase(fromFile: o.required("passphrase-file")))
    guard let summary = try vault.list().first(where: { !$0.attachments.isEmpty }),
        let record = try vault.entry(summary.id).attachments.first
    else { fail("the vault holds no attachment") }
    let out = keep ? o.required("out") : "/dev/null"
    let temp = keep ? out + ".tmp-bench" : out
    let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fail("cannot create \(temp)") }
    let cpuStart = cpuSeconds()
    var bytes: UInt64 = 0
    let elapsed = try seconds {
        try vault.readAttachment(record) { piece in
            bytes += UInt64(piece.count)
            guard keep else { return }
            var offset = 0
            while offset < piece.count {
                let n = Glibc.write(fd, piece.baseAddress! + offset, piece.count - offset)
                guard n > 0 else { fail("cannot write \(temp)") }
                offset += n
            }
        }
        if keep {
            guard fsync(fd) == 0, rename(temp, out) == 0 else { fail("cannot finish \(out)") }
        }
    }
    close(fd)
    precondition(bytes == record.length)
    emit([keep ? "extract_s" : "verify_s": elapsed, "cpu_s": cpuSeconds() - cpuStart, "bytes": bytes])
}

/// `secretstream`: the floor of sealing: `--size` bytes pushed through libsodium's
/// secretstream in 64 KiB chunks, then pulled back, in memory on one core (one chunk reused).
func benchSecretStream(_ o: Options) throws {
    let size = Int(o.values["size"] ?? "") ?? 1 << 30
    let chunk = AttachmentLimits.chunkLength
    let key = try SecretStream.keygen()
    let message = SecureRandom.bytes(count: chunk)
    let ad = [UInt8](repeating: 7, count: 48)
    let chunks = (size + chunk - 1) / chunk
    let pusher = try SecretStreamPusher(key: key)
    var out: [UInt8] = []
    let pushTime = seconds {
        for i in 0..<chunks {
            out.removeAll(keepingCapacity: true)
            message.withUnsafeBytes {
                pusher.push($0, associatedData: ad, tag: i == chunks - 1 ? .final : .message, into: &out)
            }
        }
    }
    // Only the pulls are timed: each chunk of a second stream is sealed and opened at once.
    let pullKey = try SecretStream.keygen()
    let writer = try SecretStreamPusher(key: pullKey)
    let reader = try SecretStreamPuller(key: pullKey, header: writer.header)
    var plain: [UInt8] = []
    var pullTime = 0.0
    for i in 0..<chunks {
        out.removeAll(keepingCapacity: true)
        message.withUnsafeBytes {
            writer.push($0, associatedData: ad, tag: i == chunks - 1 ? .final : .message, into: &out)
        }
        pullTime += try seconds {
            _ = try out.withUnsafeBytes { try reader.pull($0, associatedData: ad, into: &plain) }
        }
    }
    // Not the brief's floor, but work the format asks for: BLAKE2b of the stored bytes (attach,
    // extract, verify) and, keyed, of the plaintext (attach, for dedup).
    let hasher = BLAKE2b.Hasher()
    let hashTime = seconds { for _ in 0..<chunks { message.withUnsafeBytes { hasher.update($0) } } }
    _ = hasher.finish()
    let bytes = Double(chunks * chunk)
    emit([
        "bytes": chunks * chunk, "push_bytes_per_s": bytes / pushTime, "pull_bytes_per_s": bytes / pullTime,
        "blake2b_bytes_per_s": bytes / hashTime,
    ])
}
