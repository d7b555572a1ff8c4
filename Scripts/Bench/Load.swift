import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// One line of the corpus file Scripts/bench writes (JSON Lines).
struct CorpusLine: Decodable {
    let id: UUID
    let text: String
    /// Milliseconds since 1970.
    let date: Int64
    let starred: Bool
    let tags: [String]
}

/// `load`: creates a vault with the given KDF and imports the first `count` corpus entries,
/// exactly as `diary` would store them one by one (same sealing, same index), but without
/// 100,000 process starts: in one `importEntries` call up to `chunk` entries, else in calls of
/// `chunk` each (the files store refuses one change over 512 MiB, about 300,000 entries).
func benchLoad(_ o: Options) throws {
    let dir = URL(fileURLWithPath: o.required("vault"), isDirectory: true)
    guard let store = StoreKind(rawValue: o.required("store")) else { fail("unknown store") }
    let pass = try passphrase(fromFile: o.required("passphrase-file"))
    let limit = Int(o.values["count"] ?? "") ?? Int.max
    var entries: [Entry] = []
    var textBytes = 0
    let decoder = JSONDecoder()
    let readTime = try seconds {
        let data = try Data(contentsOf: URL(fileURLWithPath: o.required("corpus")))
        for line in data.split(separator: UInt8(ascii: "\n")) where entries.count < limit {
            let c = try decoder.decode(CorpusLine.self, from: line)
            let d = Date(timeIntervalSince1970: Double(c.date) / 1000)
            entries.append(
                Entry(id: c.id, text: c.text, date: d, created: d, modified: d, starred: c.starred, tags: c.tags))
            textBytes += c.text.utf8.count
        }
    }
    var imported = 0
    let importTime = try seconds {
        let vault = try Vault.create(
            at: dir, store: store, passphrase: pass, kdf: kdf(named: o.values["kdf"] ?? "moderate"))
        for start in stride(from: 0, to: entries.count, by: chunk) {
            imported += try vault.importEntries(Array(entries[start..<min(start + chunk, entries.count)])).imported
                .count
        }
    }
    emit(["entries": imported, "text_bytes": textBytes, "read_s": readTime, "import_s": importTime])
}

/// Entries a `load` imports in one change.
private let chunk = 100_000
