import Dispatch
import Foundation

/// Runs one independent piece of work per element of a batch on every core: sealing and
/// opening entries are nearly all of an export's, a verify's, an import's and a rekey's work,
/// and each entry is independent of the others.
///
/// The elements are only read and each result slot is written by one worker alone; that is
/// what makes the `@unchecked Sendable` wrappers below sound.
enum ParallelBatch {
    /// Entries handed over at once: enough to keep the workers busy, few enough that a batch
    /// of sealed entries stays small next to the memory a command may use.
    static let size = 256

    static var workers: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8) }

    /// `transform` of each element, in order. Worker `w` takes one contiguous slice.
    static func map<T, U>(_ items: [T], _ transform: (T) -> U) -> [U] {
        let workers = min(Self.workers, items.count)
        guard workers > 1 else { return items.map(transform) }
        var results = [U?](repeating: nil, count: items.count)
        withoutActuallyEscaping(transform) { transform in
            results.withUnsafeMutableBufferPointer { out in
                items.withUnsafeBufferPointer { input in
                    let work = Work(input: input, output: out, transform: transform)
                    DispatchQueue.concurrentPerform(iterations: workers) { w in
                        let count = work.input.count
                        for i in (count * w / workers)..<(count * (w + 1) / workers) {
                            work.output[i] = work.transform(work.input[i])
                        }
                    }
                }
            }
        }
        return results.map { $0! }
    }

    /// A batch being worked on in the background while the caller does something else (reads
    /// the next batch, writes the last one out). `finish` it to get the results.
    final class Job<T, U>: @unchecked Sendable {
        private let group = DispatchGroup()
        // Written by the job's block before it leaves the group, read after `wait`.
        private var results: [U] = []

        init(_ items: [T], _ transform: @escaping (T) -> U) {
            let box = Box(items: items, transform: transform)
            DispatchQueue.global(qos: .userInitiated).async(group: group) { [self] in
                results = ParallelBatch.map(box.items, box.transform)
            }
        }

        /// Waits for the batch and returns its results, in order.
        func finish() -> [U] {
            group.wait()
            return results
        }
    }

    private struct Box<T, U>: @unchecked Sendable {
        let items: [T]
        let transform: (T) -> U
    }

    /// One batch's input, results and work, shared by the workers: each reads the input and
    /// writes the results at its own indices only.
    private struct Work<T, U>: @unchecked Sendable {
        let input: UnsafeBufferPointer<T>
        let output: UnsafeMutableBufferPointer<U?>
        let transform: (T) -> U
    }
}
