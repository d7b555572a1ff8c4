import Foundation
import Synchronization

/// `EntryText.tagKey` folded once per distinct tag: `list --tag` compares the tag asked for
/// with every tag of every row, and a diary has few distinct tags, so Foundation's case
/// folding (most of that command's time when done per row) runs once for each.
///
/// Bounded: past `capacity` distinct tags (a crafted vault) the rest are folded each time,
/// with the same result, so memory stays small whatever the vault holds.
enum TagKeys {
    static let capacity = 4096
    private static let folded = Mutex<[String: String]>([:])

    static func key(_ tag: String) -> String {
        if let known = folded.withLock({ $0[tag] }) { return known }
        let key = tag.folding(options: [.caseInsensitive], locale: nil)
        folded.withLock { cache in
            if cache.count < capacity { cache[tag] = key }
        }
        return key
    }
}
