@_spi(RxInternal) import RxSwift
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Hooks {
    /// Where an animated data source reports new sections it cannot animate to (a `Diff.Error`: two
    /// items or two sections with one identity); the view is then reloaded with them, and nothing
    /// stops. The default writes the error to standard error. RxDataSources stops a debug build there.
    public static var dataSourceErrorHandler: @Sendable (Swift.Error) -> Void {
        get { dataSourceErrorHandlerStorage.withAnnotatedLock { $0 } }
        set {
            let replaced = dataSourceErrorHandlerStorage.withAnnotatedLock { handler in
                defer { handler = newValue }
                return handler
            }
            // Released after unlocking: a closure's captures may run code in their deinitializers.
            withExtendedLifetime(replaced) {}
        }
    }

    /// The default `dataSourceErrorHandler`: writes the error to standard error.
    public static let printingDataSourceErrorHandler: @Sendable (Swift.Error) -> Void = { error in
        var line = "RxDataSources: the sections cannot be animated, reloading instead: \(error)\n"
        // `write` on the descriptor: the C `stderr` global is not concurrency-safe in Swift 6.
        line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}

private let dataSourceErrorHandlerStorage = Mutex<@Sendable (Swift.Error) -> Void>(
    Hooks.printingDataSourceErrorHandler)
