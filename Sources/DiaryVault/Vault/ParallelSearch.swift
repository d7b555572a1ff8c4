import DiaryCrypto
import DiaryStore
import Foundation

/// The fast pass of `Vault.search`: the store lends each entry in place to one of several
/// threads (`EntryScanning`), and that thread looks it up in the index, checks the filter and
/// that it is the copy the index recorded, opens it into its own buffer and matches it. No
/// array is made per entry, and reading runs on the workers (files store) or beside them
/// (SQLite store) instead of one thread feeding the rest.
///
/// Only entries that open, parse and carry the recorded tag are decided here. Any other one
/// (damaged, changed since the index was read, or read oddly) is left as a suspect, for the
/// caller to read again with `readEntry` in the same snapshot and hand to `SearchScan`, which
/// decides it as it always has. What a search reports is therefore what `SearchScan` alone
/// would report.
///
/// Each worker writes only its own `Worker`; the index, the filter and the keys are only
/// read; `listed` is made on the caller's thread, before or after the scan, never during it:
/// that is what makes the `@unchecked Sendable` sound.
final class ParallelSearch: @unchecked Sendable {
    private let index: PagedIndex
    private let table: PageTable
    private let filter: EntryFilter
    /// One per thread, lent without a retain for every entry (`LentObjects`).
    private let workers: LentObjects<Worker>
    /// The entries to search: the ids the index lists whose rows pass the filter, in id order.
    /// Made only when asked for: a store that reads every entry needs no list (`readsByID`),
    /// and `suspects` only when some listed entry was not lent.
    private(set) lazy var listed: [UUID] = listing()

    /// One thread's matcher, buffer and findings.
    private final class Worker {
        /// The row after the last one this thread found (`IndexPage.position(of:hint:)`),
        /// written by this thread alone.
        var nextRow = 0
        /// The thread's own copy (`EntryBatchMatcher.copyForOneThread`): what it retains as it
        /// matches is its own.
        let matcher: EntryBatchMatcher
        let buffer = PlaintextBuffer()
        var matches: [UUID] = []
        var suspects: [UUID] = []
        /// Every entry taken (listed by the index and passing the filter), decided or not.
        var taken: [UUID] = []

        init(_ matcher: EntryBatchMatcher) { self.matcher = matcher }
    }

    init(index: PagedIndex, filter: EntryFilter, matcher: EntryBatchMatcher) {
        self.index = index
        table = PageTable(index)
        self.filter = filter
        workers = LentObjects((0..<EntryBatchMatcher.defaultWorkers).map { _ in Worker(matcher.copyForOneThread()) })
    }

    private func listing() -> [UUID] {
        var listed: [UUID] = []
        listed.reserveCapacity(index.count)
        for number in index.numbers {
            let page = index.page(ofNumber: number)
            for row in 0..<page.count where IndexListing.passes(filter, page, row) {
                listed.append(page.id(ofRowAt: row))
            }
        }
        return listed
    }

    /// How many entries `listed` holds, counted without making it (in no order: a count needs
    /// none, and `index.numbers` would order the pages again).
    private var listedCount: Int {
        index.records.keys.reduce(0) { count, number in
            let page = index.page(ofNumber: number)
            return count + (0..<page.count).count { IndexListing.passes(filter, page, $0) }
        }
    }

    var workerCount: Int { workers.count }

    /// The matching entries found, in no order.
    var matches: [UUID] { workers.all.flatMap(\.matches) }

    /// The entries this pass could not decide, in no order; with them, the entries of `listed`
    /// that the store did not lend. A store may read with more than one snapshot
    /// (`EntryScanning`): reading these again in the caller's snapshot makes an entry deleted
    /// meanwhile count as that snapshot has it, as an entry changed meanwhile does (its tag
    /// differs: a suspect).
    var suspects: [UUID] {
        let undecided = workers.all.flatMap(\.suspects)
        let taken = workers.all.reduce(0) { $0 + $1.taken.count }
        guard listedCount != taken else { return undecided }
        let seen = Set(workers.all.flatMap(\.taken))
        return undecided + listed.filter { !seen.contains($0) }
    }

    /// One entry lent by the store, on worker `w`'s thread: false when it is not the copy the
    /// index records (the store learns that a copy it lent from is stale, `EntryScanBody`).
    /// One that carries the recorded tag but does not open is a suspect too, but the entry's
    /// own damage: a copy made again would hold the same bytes.
    func take(_ w: Int, _ id: UUID, _ sealed: UnsafeRawBufferPointer) -> Bool {
        workers.with(w) { worker in table.withPage(of: id) { page in take(id, sealed, on: page, by: worker) } }
    }

    private func take(_ id: UUID, _ sealed: UnsafeRawBufferPointer, on page: IndexPage, by worker: Worker) -> Bool {
        let (found, row) = page.position(of: id, hint: worker.nextRow)
        guard found else { return true }
        worker.nextRow = row + 1
        guard IndexListing.passes(filter, page, row) else { return true }
        worker.taken.append(id)
        guard page.sealTagMatches(ofRowAt: row, sealed) else {
            worker.suspects.append(id)
            return false
        }
        guard let hit = worker.matcher.match(id, sealed, in: worker.buffer) else {
            worker.suspects.append(id)
            return true
        }
        if hit { worker.matches.append(id) }
        return true
    }
}

extension SealTag {
    /// True when `sealed` ends with this tag (compared in constant time), read in place.
    func matches(_ sealed: UnsafeRawBufferPointer) -> Bool {
        let n = IndexRoot.tagLength
        guard sealed.count >= n, bytes.count == n else { return false }
        // Every byte is compared, whatever the first difference: no early exit.
        var difference: UInt8 = 0
        let start = sealed.count - n
        for i in 0..<n { difference |= bytes[i] ^ sealed[start + i] }
        return difference == 0
    }
}
