import Foundation

/// Runs a program other than `diary` (git, python, an installed copy) to the end, with stdin
/// closed, and returns what it printed. `env` is added to this process's environment.
func runProgram(_ url: URL, _ args: [String], env: [String: String] = [:]) throws -> DiaryResult {
    let process = Process()
    process.executableURL = url
    process.arguments = args
    process.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // stderr on its own thread: a chatty program must not block on a full pipe.
    nonisolated(unsafe) var errData = Data()
    let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { usleep(1000) }
    return DiaryResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}
