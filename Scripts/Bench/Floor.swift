import DiaryCrypto
import DiaryStore
import Foundation

/// `floor`: what searching a vault cannot go below, the process start aside: one
/// XChaCha20-Poly1305 open of each of its sealed entries, on every core. The entries' sizes are
/// read from the vault (`--vault`); each is sealed again under a random key with associated
/// data of the vault's length (54 bytes), so libsodium opens exactly as many bytes, in
/// messages of exactly the same sizes, as `diary search` must, without the passphrase.
/// Prints the median wall and CPU time of `--runs` passes (default 7).
///
/// With `--passes-from stdin`, it prints the vault's figures (entries, bytes, workers) once set
/// up, then runs one pass for each line it reads and prints that pass's times, until stdin
/// ends: `Scripts/bench` asks for a pass after each run of a row it judges against the floor,
/// so that the row and its floor are measured under the same load, run by run.
func benchFloor(_ o: Options) throws {
    let dir = URL(fileURLWithPath: o.required("vault"), isDirectory: true)
    let runs = Int(o.values["runs"] ?? "") ?? 7
    let sizes = try sealedSizes(in: dir)
    // version, kind, generation (6) and the nonce (24) precede the ciphertext; the tag ends it.
    let key = try SecretBytes(randomCount: XChaCha20Poly1305.keyByteCount)
    let ad = [UInt8](repeating: 7, count: 54)
    let boxes = try sizes.map { size in
        try XChaCha20Poly1305.seal(SecureRandom.bytes(count: max(size - 46, 0)), key: key, associatedData: ad)
    }
    let workers = max(ProcessInfo.processInfo.activeProcessorCount, 1)
    /// One pass: every box opened, the boxes shared out between one thread per core.
    func pass() -> (wall: Double, cpu: Double) {
        let cpuStart = cpuSeconds()
        let wall = seconds {
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                for i in stride(from: w, to: boxes.count, by: workers) {
                    _ = try! XChaCha20Poly1305.open(boxes[i], key: key, associatedData: ad)
                }
            }
        }
        return (wall, cpuSeconds() - cpuStart)
    }
    let vault: [String: Any] = ["entries": sizes.count, "sealed_bytes": sizes.reduce(0, +), "workers": workers]
    if o.values["passes-from"] == "stdin" {
        emit(vault)
        while readLine() != nil {
            let (wall, cpu) = pass()
            emit(["open_s": wall, "open_cpu_s": cpu])
        }
        return
    }
    let passes = (0..<runs).map { _ in pass() }
    emit(vault.merging(["open_s": median(passes.map(\.wall)), "open_cpu_s": median(passes.map(\.cpu))]) { a, _ in a })
}

/// The sizes of the vault's sealed entries. The store is closed when this returns: a floor kept
/// running beside a row (`--passes-from stdin`) must not hold the SQLite file open while `diary`
/// runs, or no `diary` process would be the file's last connection, and none would pay for the
/// checkpoint and the removal of the write-ahead log that a user's command pays for on closing.
private func sealedSizes(in dir: URL) throws -> [Int] {
    let store = try StoreLayout.open(at: dir)
    var sizes: [Int] = []
    try store.forEachEntry { _, sealed in sizes.append(sealed.count) }
    return sizes
}
