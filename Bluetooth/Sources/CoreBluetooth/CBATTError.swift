import Foundation

/// The domain of ``CBATTError``s, `"CBATTErrorDomain"`, as in an `NSError` bridged from one.
public let CBATTErrorDomain: String = "CBATTErrorDomain"

/// An error a GATT server answers a request with: the Attribute Protocol's error codes.
///
/// A central receives these when a peripheral refuses a read or a write; a peripheral manager answers a
/// central's request with one of the ``Code``s.
///
/// The shape is the one Swift gives Apple's `CBATTError`: a struct with a nested ``Code``, a static member for
/// each code, and pattern matching by code, so that
///
/// ```swift
/// do { ... } catch CBATTError.readNotPermitted { ... }
/// ```
///
/// compiles and matches on Linux as it does on Apple's platforms. Two errors are equal when their codes
/// are; the user info does not take part.
public struct CBATTError: Error, Sendable, Hashable {
    /// The Attribute Protocol's error codes (Bluetooth Core Specification, Vol 3, Part F, 3.4.1.1), with
    /// their values, as Apple names them.
    public enum Code: Int, Sendable, Hashable {
        /// The request succeeded: what a peripheral manager answers a request it grants with.
        case success = 0
        case invalidHandle = 1
        case readNotPermitted = 2
        case writeNotPermitted = 3
        case invalidPdu = 4
        case insufficientAuthentication = 5
        case requestNotSupported = 6
        case invalidOffset = 7
        case insufficientAuthorization = 8
        case prepareQueueFull = 9
        case attributeNotFound = 10
        case attributeNotLong = 11
        case insufficientEncryptionKeySize = 12
        case invalidAttributeValueLength = 13
        case unlikelyError = 14
        case insufficientEncryption = 15
        case unsupportedGroupType = 16
        case insufficientResources = 17
    }

    /// What the server answered.
    public let code: Code

    /// More about the error: a description, an underlying error. Only `Sendable` values, so that errors
    /// cross isolation domains as Swift 6 requires.
    public let userInfo: [String: any Sendable]

    /// Creates an error with a code and, optionally, more information about it.
    public init(_ code: Code, userInfo: [String: any Sendable] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    public static func == (lhs: CBATTError, rhs: CBATTError) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}

extension CBATTError: CustomNSError {
    public static var errorDomain: String { CBATTErrorDomain }

    public var errorCode: Int { code.rawValue }

    /// The user info, with a description of the code under `NSLocalizedDescriptionKey` unless the user info
    /// gives one.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = userInfo
        if info[NSLocalizedDescriptionKey] == nil { info[NSLocalizedDescriptionKey] = code.summary }
        return info
    }
}

extension CBATTError.Code {
    /// Matches any error that is a ``CBATTError`` with this code, so that `catch CBATTError.readNotPermitted`
    /// works.
    public static func ~= (code: CBATTError.Code, error: any Error) -> Bool {
        (error as? CBATTError)?.code == code
    }

    /// A sentence saying what the code means.
    var summary: String {
        switch self {
        case .success: "The request succeeded."
        case .invalidHandle: "The attribute handle is invalid on this server."
        case .readNotPermitted: "The attribute cannot be read."
        case .writeNotPermitted: "The attribute cannot be written."
        case .invalidPdu: "The request was malformed."
        case .insufficientAuthentication: "The attribute needs an authenticated link."
        case .requestNotSupported: "The server does not support the request."
        case .invalidOffset: "The offset is past the end of the attribute's value."
        case .insufficientAuthorization: "The attribute needs authorization."
        case .prepareQueueFull: "Too many writes are queued."
        case .attributeNotFound: "No attribute was found in the handle range."
        case .attributeNotLong: "The attribute cannot be read or written with a long request."
        case .insufficientEncryptionKeySize: "The link's encryption key is too short."
        case .invalidAttributeValueLength: "The value's length is invalid for the attribute."
        case .unlikelyError: "The request failed for an unlikely reason."
        case .insufficientEncryption: "The attribute needs an encrypted link."
        case .unsupportedGroupType: "The attribute type is not a grouping type."
        case .insufficientResources: "The server lacks the resources to complete the request."
        }
    }
}

// A static member for each code, as Swift gives Apple's error structs: `CBATTError.readNotPermitted` is a
// `CBATTError.Code`, for `catch` patterns, comparisons with `error.code`, and a peripheral manager's
// answer to a request.
extension CBATTError {
    public static var success: Code { .success }
    public static var invalidHandle: Code { .invalidHandle }
    public static var readNotPermitted: Code { .readNotPermitted }
    public static var writeNotPermitted: Code { .writeNotPermitted }
    public static var invalidPdu: Code { .invalidPdu }
    public static var insufficientAuthentication: Code { .insufficientAuthentication }
    public static var requestNotSupported: Code { .requestNotSupported }
    public static var invalidOffset: Code { .invalidOffset }
    public static var insufficientAuthorization: Code { .insufficientAuthorization }
    public static var prepareQueueFull: Code { .prepareQueueFull }
    public static var attributeNotFound: Code { .attributeNotFound }
    public static var attributeNotLong: Code { .attributeNotLong }
    public static var insufficientEncryptionKeySize: Code { .insufficientEncryptionKeySize }
    public static var invalidAttributeValueLength: Code { .invalidAttributeValueLength }
    public static var unlikelyError: Code { .unlikelyError }
    public static var insufficientEncryption: Code { .insufficientEncryption }
    public static var unsupportedGroupType: Code { .unsupportedGroupType }
    public static var insufficientResources: Code { .insufficientResources }
}
