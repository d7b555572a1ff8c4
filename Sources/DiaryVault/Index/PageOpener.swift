import DiaryCrypto
import Dispatch
import Foundation

/// Opens sealed index pages against what the root records of each, on every core when there
/// are many: `search` opens every page before its scan starts, and at 100,000 entries that is
/// 512 pages opened one after another while the other cores wait.
///
/// Each thread opens into a guarded buffer of its own and writes only its own result slots;
/// the keys and the root are only read. That is what makes the `@unchecked Sendable` sound.
struct PageOpener: @unchecked Sendable {
    let vaultID: UUID
    let keyRing: KeyRing
    let root: PagedIndex

    /// Fewer pages than this are opened on the caller's thread alone (a command that reads a
    /// page or two must not pay for threads and guarded buffers).
    static let parallelFrom = 16

    /// The pages, opened in the order given; nil if any is absent, is not the copy the root
    /// names, or fails to open. `buffer` serves when the caller's thread opens them alone.
    func open(_ sealedPages: [(Int, [UInt8]?)], buffer: PlaintextBuffer) -> [IndexPage]? {
        let workers = sealedPages.count >= Self.parallelFrom ? EntryBatchMatcher.defaultWorkers : 1
        var results = [IndexPage?](repeating: nil, count: sealedPages.count)
        if workers <= 1 {
            for (i, item) in sealedPages.enumerated() {
                guard let page = open(item, into: buffer) else { return nil }
                results[i] = page
            }
        } else {
            results.withUnsafeMutableBufferPointer { out in
                let slots = Slots(base: out.baseAddress!)
                // Pages taken in turn, so a thread the system runs less takes fewer.
                DispatchQueue.concurrentPerform(iterations: workers) { w in
                    // A buffer of each thread's own (the caller's serves one thread at a time).
                    let own = PlaintextBuffer()
                    for i in stride(from: w, to: sealedPages.count, by: workers) {
                        slots.base[i] = open(sealedPages[i], into: own)
                    }
                }
            }
        }
        var opened: [IndexPage] = []
        opened.reserveCapacity(results.count)
        for page in results {
            guard let page else { return nil }
            opened.append(page)
        }
        return opened
    }

    /// One page, checked against the root's record of it (tag, rows and newest row).
    func open(_ item: (Int, [UInt8]?), into buffer: PlaintextBuffer) -> IndexPage? {
        let (number, sealed) = item
        guard let sealed, let record = root.records[number], SealTag(record.tag).matches(sealed) else { return nil }
        guard
            let page = try? Envelope.open(
                sealed, kind: .indexPage, objectID: IndexLayout.objectID(ofPage: number), vaultID: vaultID,
                keyRing: keyRing, into: buffer,
                { try IndexPage.decode($0, number: number, version: root.version, expectedCount: record.rows) }),
            page.newestKey() == record.newest
        else { return nil }
        return page
    }

    /// The results' memory, written by the threads at disjoint indices only.
    private struct Slots: @unchecked Sendable {
        let base: UnsafeMutablePointer<IndexPage?>
    }
}
