import Foundation

/// The bytes of arguments as the shell gave them.
///
/// Swift decodes `argv` into `CommandLine.arguments` replacing what is not UTF-8 by U+FFFD,
/// so a file name that is not UTF-8 (`$'\xff.bin'`) reaches a command as another name. Where
/// an argument is a path to open, the command asks here for its bytes: the argument elements
/// (or the value after `--option=`, or after a short `-o`) that decode to that string, taken in
/// the order they were given.
enum RawArguments {
    /// The raw bytes of `values` (arguments of one command, in the order given): a value
    /// without U+FFFD is its UTF-8 as it is; one with U+FFFD is matched, in order, to the
    /// elements of `arguments` that decode to it.
    static func bytes(of values: [String], in arguments: [[UInt8]] = commandLine()) -> [[UInt8]] {
        var candidates = arguments.dropFirst().flatMap(Self.candidates)
        return values.map { value in
            guard value.unicodeScalars.contains("\u{FFFD}") else { return Array(value.utf8) }
            guard let index = candidates.firstIndex(where: { String(decoding: $0, as: UTF8.self) == value }) else {
                return Array(value.utf8)
            }
            let raw = candidates[index]
            candidates.removeSubrange(...index)
            return raw
        }
    }

    /// The raw bytes of one value (see `bytes(of:in:)`).
    static func bytes(of value: String, in arguments: [[UInt8]] = commandLine()) -> [UInt8] {
        bytes(of: [value], in: arguments)[0]
    }

    /// What one element may give a command: itself, the value of `--option=VALUE`, or of `-oVALUE`.
    private static func candidates(_ element: [UInt8]) -> [[UInt8]] {
        let dash = UInt8(ascii: "-")
        var found = [element]
        if element.starts(with: [dash, dash]), let equals = element.firstIndex(of: UInt8(ascii: "=")) {
            found.append(Array(element[(equals + 1)...]))
        } else if element.count > 2, element[0] == dash, element[1] != dash {
            found.append(Array(element[2...]))
        }
        return found
    }

    /// `argv` as bytes.
    static func commandLine() -> [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                    count: strlen(pointer)))
        }
    }
}
