/// Objects that several threads read for every entry of a search, lent without a retain.
///
/// Why: reading a class reference out of an array retains it (the optimiser cannot prove that
/// nothing frees it while it is used), and threads retaining the same objects passed their
/// reference counts between the cores for every entry. `owned` keeps each object alive as long
/// as this value lives; `lent` holds the same references, unmanaged.
struct LentObjects<Object: AnyObject> {
    private let owned: [Object]
    private let lent: [Unmanaged<Object>]

    init(_ objects: [Object]) {
        owned = objects
        lent = objects.map { Unmanaged.passUnretained($0) }
    }

    var all: [Object] { owned }
    var count: Int { owned.count }

    /// `body(all[i])`, without a retain: `_withUnsafeGuaranteedRef` is the standard library's
    /// way to use an unmanaged reference for the length of a call, here while `owned` holds it.
    @inline(__always)
    func with<R>(_ i: Int, _ body: (Object) -> R) -> R {
        withExtendedLifetime(owned) { lent[i]._withUnsafeGuaranteedRef(body) }
    }
}
