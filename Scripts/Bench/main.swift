// diary-bench: in-process measurements of the vault layer (no CLI, no process start-up).
//
//   diary-bench passwd [--kdf interactive|moderate|test] N…
//       builds a vault of N entries for each N (in both stores), then times changePassphrase
//       (median of 5) — the cost must not depend on N, since only the header is rewritten.
import DiaryCrypto
import DiaryVault
import Foundation

func secret(_ s: String) -> SecretBytes {
    var b = Array(s.utf8)
    return try! SecretBytes(consuming: &b)
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func syntheticEntries(_ n: Int) -> [Entry] {
    let base = Date(timeIntervalSince1970: 1_500_000_000)
    let body = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 30)
    return (0..<n).map { i in
        let d = base.addingTimeInterval(Double(i) * 3600)
        return Entry(id: UUID(), text: "Entry \(i)\n\(body)", date: d, created: d, modified: d,
                     starred: i % 20 == 0, tags: ["t\(i % 7)"])
    }
}

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
                times.append(try seconds {
                    try vault.changePassphrase(current: secret("p\(round)"), new: secret("p\(round + 1)"))
                })
            }
            print(String(format: "%-8@ %7d   %.4f", store.rawValue as NSString, n, median(times)))
        }
    }
}

var args = Array(CommandLine.arguments.dropFirst())
guard args.first == "passwd" else {
    FileHandle.standardError.write(Data("usage: diary-bench passwd [--kdf interactive|moderate|test] N…\n".utf8))
    exit(64)
}
args.removeFirst()
var kdf = KDFParameters.interactive
if args.first == "--kdf", args.count > 1 {
    switch args[1] {
    case "moderate": kdf = .moderate
    case "test": kdf = .insecureForTesting
    default: kdf = .interactive
    }
    args.removeFirst(2)
}
try benchPasswd(kdf: kdf, sizes: args.compactMap(Int.init).isEmpty ? [100, 10_000] : args.compactMap(Int.init))
