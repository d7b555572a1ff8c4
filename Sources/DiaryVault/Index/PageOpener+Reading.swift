import DiaryCrypto
import Dispatch
import Foundation

extension PageOpener {
    /// The pages `numbers` name, read with `read` on the calling thread (a store's snapshot is
    /// used on the thread that opened it) while the other threads open the pages already read,
    /// in the order given; nil if any is absent, is not the copy the root names, or fails to
    /// open. Throws what `read` throws, after the other threads have stopped.
    ///
    /// Why: reading every page, then opening them, left the other cores idle for the whole
    /// read (at 100,000 entries, 512 pages and 13 MB), and kept every sealed page in memory
    /// until the last was opened; here each is dropped once opened.
    func open(reading numbers: [Int], buffer: PlaintextBuffer, _ read: (Int) throws -> [UInt8]?) throws
        -> [IndexPage]?
    {
        let workers = EntryBatchMatcher.defaultWorkers
        guard numbers.count >= Self.parallelFrom, workers > 1 else {
            return open(try numbers.map { ($0, try read($0)) }, buffer: buffer)
        }
        let shelf = Shelf(count: numbers.count)
        let group = DispatchGroup()
        for _ in 1..<workers {
            DispatchQueue.global(qos: .userInitiated).async(group: group) {
                // A buffer of each thread's own (the caller's serves the calling thread).
                openAll(numbers, from: shelf, into: PlaintextBuffer())
            }
        }
        do {
            for (i, number) in numbers.enumerated() {
                guard !shelf.failed else { break }  // a page failed: the caller starts over
                shelf.put(try read(number), at: i)
            }
        } catch {
            shelf.stop()
            group.wait()
            throw error
        }
        shelf.finishReading()
        openAll(numbers, from: shelf, into: buffer)
        group.wait()
        return shelf.pages()
    }

    /// Opens pages from `shelf` as they are read, until none is left.
    private func openAll(_ numbers: [Int], from shelf: Shelf, into buffer: PlaintextBuffer) {
        while let (i, sealed) = shelf.take() {
            shelf.store(open((numbers[i], sealed), into: buffer), at: i)
        }
    }
}

/// The pages between the reading thread and the opening ones: sealed pages put in order,
/// taken in order, and each result stored in its own slot. Every field is guarded by the
/// condition's lock, which is what makes the `@unchecked Sendable` sound.
private final class Shelf: @unchecked Sendable {
    private let condition = NSCondition()
    private var sealed: [[UInt8]?]
    private var opened: [IndexPage?]
    private var read = 0
    private var taken = 0
    private var readingDone = false
    private var anyFailed = false

    init(count: Int) {
        sealed = Array(repeating: nil, count: count)
        opened = Array(repeating: nil, count: count)
    }

    var failed: Bool { condition.withLock { anyFailed } }

    func put(_ page: [UInt8]?, at i: Int) {
        condition.withLock {
            sealed[i] = page
            read = i + 1
            condition.signal()
        }
    }

    func finishReading() {
        condition.withLock {
            readingDone = true
            condition.broadcast()
        }
    }

    /// Stops every opening thread: nothing more is handed out.
    func stop() {
        condition.withLock {
            anyFailed = true
            readingDone = true
            condition.broadcast()
        }
    }

    /// The next sealed page read and not yet taken, waiting for it to be read; nil when none
    /// is left (or one failed: the rest would be opened in vain).
    func take() -> (Int, [UInt8]?)? {
        condition.withLock {
            while taken >= read, !readingDone { condition.wait() }
            guard taken < read, !anyFailed else { return nil }
            defer { taken += 1 }
            let page = sealed[taken]
            sealed[taken] = nil  // its memory is free again once opened
            return (taken, page)
        }
    }

    func store(_ page: IndexPage?, at i: Int) {
        condition.withLock {
            opened[i] = page
            if page == nil { anyFailed = true }
        }
    }

    /// Every page, opened; nil if any failed.
    func pages() -> [IndexPage]? {
        condition.withLock {
            guard !anyFailed else { return nil }
            var all: [IndexPage] = []
            all.reserveCapacity(opened.count)
            for page in opened {
                guard let page else { return nil }
                all.append(page)
            }
            return all
        }
    }
}
