import DiaryFuzzing

/// libFuzzer's entry point: one input to `ExchangeFuzzEntryPoints.dayOneZip`. No top-level code.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ExchangeFuzzEntryPoints.dayOneZip(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
