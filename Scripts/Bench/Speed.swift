import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// `aead`: raw XChaCha20-Poly1305 open speed on one core, for messages of `--size` bytes
/// (default: the corpus's mean entry size), through DiaryCrypto's `open` — the same call the
/// vault makes, without the store, the envelope parsing or the entry decoding around it.
func benchAEAD(_ o: Options) throws {
    let size = Int(o.values["size"] ?? "") ?? 1536
    let budget = Double(o.values["seconds"] ?? "") ?? 1.0
    let key = try SecretBytes(randomCount: XChaCha20Poly1305.keyByteCount)
    let ad = [UInt8](repeating: 7, count: 54)
    let box = try XChaCha20Poly1305.seal(SecureRandom.bytes(count: size), key: key, associatedData: ad)
    var opens = 0
    var sink = 0
    let cpuStart = cpuSeconds()
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    while elapsed < budget {
        for _ in 0..<1000 {
            sink &+= try XChaCha20Poly1305.open(box, key: key, associatedData: ad).count
        }
        opens += 1000
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    let cpu = cpuSeconds() - cpuStart
    precondition(sink == opens * size)
    emit([
        "size": size, "opens_per_s": Double(opens) / elapsed, "bytes_per_s": Double(opens * size) / elapsed,
        "cpu_bytes_per_s": Double(opens * size) / cpu,
    ])
}

/// `search`: `Vault.search` in process (vault already open, so neither process start-up nor
/// the KDF is counted): median of `--runs`, with the text bytes scanned per second.
func benchSearch(_ o: Options) throws {
    let dir = URL(fileURLWithPath: o.required("vault"), isDirectory: true)
    let query = o.required("query")
    let runs = Int(o.values["runs"] ?? "") ?? 3
    var openTime = 0.0
    var vault: Vault!
    openTime = try seconds {
        vault = try Vault.open(at: dir, passphrase: passphrase(fromFile: o.required("passphrase-file")))
    }
    let textBytes = try vault.list().reduce(0) { $0 + $1.size }
    var times: [Double] = []
    var cpuTimes: [Double] = []
    var hits = 0
    for _ in 0..<runs {
        let cpuStart = cpuSeconds()
        times.append(try seconds { hits = try vault.search(query).matches.count })
        cpuTimes.append(cpuSeconds() - cpuStart)
    }
    let t = median(times)
    let cpu = median(cpuTimes)
    emit([
        "open_s": openTime, "search_s": t, "search_cpu_s": cpu, "hits": hits, "text_bytes": textBytes,
        "bytes_per_s": Double(textBytes) / t, "cpu_bytes_per_s": Double(textBytes) / cpu,
    ])
}
