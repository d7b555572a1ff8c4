import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

func syntheticEntries(_ n: Int) -> [Entry] {
    let base = Date(timeIntervalSince1970: 1_500_000_000)
    let body = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 30)
    return (0..<n).map { i in
        let d = base.addingTimeInterval(Double(i) * 3600)
        return Entry(
            id: UUID(), text: "Entry \(i)\n\(body)", date: d, created: d, modified: d,
            starred: i % 20 == 0, tags: ["t\(i % 7)"])
    }
}

/// `passwd`: builds a vault of N entries for each N (in both stores), then times
/// changePassphrase (median of 5) — the cost must not depend on N, since only the header is
/// rewritten.
func benchPasswd(kdf: KDFParameters, sizes: [Int]) throws {
    print("passwd: median of 5 changePassphrase calls, KDF \(kdf)")
    print("store    entries   median_s")
    for store in StoreKind.allCases {
        for n in sizes {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("diary-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: dir) }
            let vault = try Vault.create(at: dir, store: store, passphrase: secret("p0"), kdf: kdf)
            _ = try vault.importEntries(syntheticEntries(n))
            var times: [Double] = []
            for round in 0..<5 {
                times.append(
                    try seconds {
                        try vault.changePassphrase(current: secret("p\(round)"), new: secret("p\(round + 1)"))
                    })
            }
            print(String(format: "%-8@ %7d   %.4f", store.rawValue as NSString, n, median(times)))
        }
    }
}
