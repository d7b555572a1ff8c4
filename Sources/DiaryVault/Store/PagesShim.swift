// TEMPORARY: replaced by the stores' own page support when branch `pages` is merged.
extension StoreReader {
    public func readIndexPage(_ page: Int) throws -> [UInt8]? { nil }
    public func readIndexPages() throws -> [Int: [UInt8]] { [:] }
}
