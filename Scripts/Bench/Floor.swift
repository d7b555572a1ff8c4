import DiaryCrypto
import DiaryStore
import Foundation

/// `floor`: what searching a vault cannot go below, the process start aside: one
/// XChaCha20-Poly1305 open of each of its sealed entries, on every core. The entries' sizes are
/// read from the vault (`--vault`); each is sealed again under a random key with associated
/// data of the vault's length (54 bytes), so libsodium opens exactly as many bytes, in
/// messages of exactly the same sizes, as `diary search` must, without the passphrase.
/// Prints the median wall and CPU time of `--runs` passes (default 7).
func benchFloor(_ o: Options) throws {
    let dir = URL(fileURLWithPath: o.required("vault"), isDirectory: true)
    let runs = Int(o.values["runs"] ?? "") ?? 7
    let store = try StoreLayout.open(at: dir)
    var sizes: [Int] = []
    try store.forEachEntry { _, sealed in sizes.append(sealed.count) }
    // version, kind, generation (6) and the nonce (24) precede the ciphertext; the tag ends it.
    let key = try SecretBytes(randomCount: XChaCha20Poly1305.keyByteCount)
    let ad = [UInt8](repeating: 7, count: 54)
    let boxes = try sizes.map { size in
        try XChaCha20Poly1305.seal(SecureRandom.bytes(count: max(size - 46, 0)), key: key, associatedData: ad)
    }
    let workers = max(ProcessInfo.processInfo.activeProcessorCount, 1)
    var times: [Double] = []
    var cpuTimes: [Double] = []
    for _ in 0..<runs {
        let cpuStart = cpuSeconds()
        times.append(
            seconds {
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    for i in stride(from: w, to: boxes.count, by: workers) {
                        _ = try! XChaCha20Poly1305.open(boxes[i], key: key, associatedData: ad)
                    }
                }
            })
        cpuTimes.append(cpuSeconds() - cpuStart)
    }
    emit([
        "entries": sizes.count, "sealed_bytes": sizes.reduce(0, +), "workers": workers,
        "open_s": median(times), "open_cpu_s": median(cpuTimes),
    ])
}
