/// An L2CAP channel's Protocol/Service Multiplexer: the number a central opens a channel to, as a port
/// number is for TCP.
public typealias CBL2CAPPSM = UInt16
