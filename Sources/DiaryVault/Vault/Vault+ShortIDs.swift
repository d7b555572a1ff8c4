import Foundation

extension Vault {
    /// The fewest hex digits, at least `minimum`, at which each of `ids` differs from every
    /// other entry of the vault (not only from the others in `ids`), so a short id that `list`
    /// prints is always one `resolve` accepts back, as git's abbreviated hashes are.
    ///
    /// Cheap: ids sharing four hex digits (16 bits, the deepest a page goes) live on the same
    /// index page (`IndexLayout`), whose rows are sorted by id, so only an id's two neighbours
    /// on its page can share the most digits with it, as long as `minimum` is at least 4; the
    /// pages of listed entries are already in memory.
    public func uniquePrefixLength(of ids: [UUID], minimum: Int) throws -> Int {
        try sealedIndex.ensurePages(holding: ids)
        let index = sealedIndex.index
        var length = minimum
        for id in ids {
            let page = index.page(of: id)
            let (found, at) = page.position(of: id)
            let neighbours = [at - 1, found ? at + 1 : at].filter { $0 >= 0 && $0 < page.count }
            for i in neighbours {
                length = max(length, min(32, Self.sharedHexDigits(id, page.id(ofRowAt: i)) + 1))
            }
        }
        return length
    }

    static func sharedHexDigits(_ a: UUID, _ b: UUID) -> Int {
        let (x, y) = (a.sortKey, b.sortKey)
        let high = x.0 ^ y.0
        if high != 0 { return high.leadingZeroBitCount / 4 }
        let low = x.1 ^ y.1
        return low == 0 ? 32 : 16 + low.leadingZeroBitCount / 4
    }
}
