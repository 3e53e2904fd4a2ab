import Foundation

/// The domain of ``CBError``s, `"CBErrorDomain"`, as in an `NSError` bridged from one.
public let CBErrorDomain: String = "CBErrorDomain"

/// An error of the Bluetooth stack itself: a lost connection, a timeout, a bad parameter.
///
/// Errors that a peripheral's GATT server answers with are ``CBATTError``s instead.
///
/// The shape is the one Swift gives Apple's `CBError`: a struct with a nested ``Code``, a static member for
/// each code, and pattern matching by code, so that
///
/// ```swift
/// do { ... } catch CBError.peripheralDisconnected { ... }
/// ```
///
/// compiles and matches on Linux as it does on Apple's platforms. Two errors are equal when their codes
/// are; the user info does not take part.
public struct CBError: Error, Sendable, Hashable {
    /// The codes of Apple's `CBErrorDomain`, with Apple's values.
    public enum Code: Int, Sendable, Hashable {
        case unknown = 0
        case invalidParameters = 1
        case invalidHandle = 2
        case notConnected = 3
        case outOfSpace = 4
        case operationCancelled = 5
        case connectionTimeout = 6
        case peripheralDisconnected = 7
        case uuidNotAllowed = 8
        case alreadyAdvertising = 9
        case connectionFailed = 10
        case connectionLimitReached = 11
        case unknownDevice = 12
        case operationNotSupported = 13
        case peerRemovedPairingInformation = 14
        case encryptionTimedOut = 15
        case tooManyLEPairedDevices = 16
        case leGattExceededBackgroundNotificationLimit = 17
        case leGattNearBackgroundNotificationLimit = 18

        /// Apple's misspelt name for ``unknownDevice``, kept for code that still uses it.
        @available(*, deprecated, renamed: "unknownDevice")
        public static var unkownDevice: Code { .unknownDevice }
    }

    /// What went wrong.
    public let code: Code

    /// More about the error: a description, an underlying error. Only `Sendable` values, so that errors
    /// cross isolation domains as Swift 6 requires.
    public let userInfo: [String: any Sendable]

    /// Creates an error with a code and, optionally, more information about it.
    public init(_ code: Code, userInfo: [String: any Sendable] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static func == (lhs: CBError, rhs: CBError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}

extension CBError: CustomNSError {
    public static var errorDomain: String { CBErrorDomain }

    public var errorCode: Int { code.rawValue }

    /// The user info, with a description of the code under `NSLocalizedDescriptionKey` unless the user info
    /// gives one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = userInfo
        if info[NSLocalizedDescriptionKey] == nil { info[NSLocalizedDescriptionKey] = code.summary }
        return info
    }
}

extension CBError.Code {
    /// Matches any error that is a ``CBError`` with this code, so that `catch CBError.notConnected` works.
    public static func ~= (code: CBError.Code, error: any Error) -> Bool {
        (error as? CBError)?.code == code
    }

    /// A sentence saying what the code means.
    var summary: String {
        switch self {
        case .unknown: "An unknown Bluetooth error occurred."
        case .invalidParameters: "The parameters are invalid."
        case .invalidHandle: "The attribute handle is invalid."
        case .notConnected: "The device is not connected."
        case .outOfSpace: "The device has no space left for the operation."
        case .operationCancelled: "The operation was cancelled."
        case .connectionTimeout: "The connection timed out."
        case .peripheralDisconnected: "The peripheral disconnected."
        case .uuidNotAllowed: "The UUID is not allowed."
        case .alreadyAdvertising: "The peripheral is already advertising."
        case .connectionFailed: "The connection failed."
        case .connectionLimitReached: "The device has reached its limit of connections."
        case .unknownDevice: "The device is unknown."
        case .operationNotSupported: "The operation is not supported."
        case .peerRemovedPairingInformation: "The peer removed its pairing information."
        case .encryptionTimedOut: "Encrypting the connection timed out."
        case .tooManyLEPairedDevices: "Too many LE devices are paired."
        case .leGattExceededBackgroundNotificationLimit: "The background notification limit was exceeded."
        case .leGattNearBackgroundNotificationLimit: "The background notification limit is near."
        }
    }
}

// A static member for each code, as Swift gives Apple's error structs: `CBError.notConnected` is a
// `CBError.Code`, for `catch` patterns and comparisons with `error.code`.
extension CBError {
    public static var unknown: Code { .unknown }
    public static var invalidParameters: Code { .invalidParameters }
    public static var invalidHandle: Code { .invalidHandle }
    public static var notConnected: Code { .notConnected }
    public static var outOfSpace: Code { .outOfSpace }
    public static var operationCancelled: Code { .operationCancelled }
    public static var connectionTimeout: Code { .connectionTimeout }
    public static var peripheralDisconnected: Code { .peripheralDisconnected }
    public static var uuidNotAllowed: Code { .uuidNotAllowed }
    public static var alreadyAdvertising: Code { .alreadyAdvertising }
    public static var connectionFailed: Code { .connectionFailed }
    public static var connectionLimitReached: Code { .connectionLimitReached }
    public static var unknownDevice: Code { .unknownDevice }
    public static var operationNotSupported: Code { .operationNotSupported }
    public static var peerRemovedPairingInformation: Code { .peerRemovedPairingInformation }
    public static var encryptionTimedOut: Code { .encryptionTimedOut }
    public static var tooManyLEPairedDevices: Code { .tooManyLEPairedDevices }
    public static var leGattExceededBackgroundNotificationLimit: Code { .leGattExceededBackgroundNotificationLimit }
    public static var leGattNearBackgroundNotificationLimit: Code { .leGattNearBackgroundNotificationLimit }

    /// Apple's misspelt name for ``unknownDevice``, kept for code that still uses it.
    @available(*, deprecated, renamed: "unknownDevice")
    public static var unkownDevice: Code { .unknownDevice }
}
