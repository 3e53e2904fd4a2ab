import Dispatch

/// The devices of ``BlueZSimulation/Configuration/standard``: one of each kind a BLE client meets,
/// at fixed addresses (the same in every run).
public enum StandardDevices {
    public enum Address {
        public static let heartRateMonitor = "C4:7C:8D:6A:10:01"
        public static let thermometer = "00:1B:DC:0B:00:02"
        public static let light = "00:1B:DC:0B:00:03"
        public static let batteryTag = "E8:2A:44:00:00:04"
        public static let renamingPhone = "00:1B:DC:0B:00:05"
        public static let flakySensor = "00:1B:DC:0B:00:06"
        public static let fastNotifier = "00:1B:DC:0B:00:07"
    }

    /// The 128-bit UUIDs of the vendor services.
    public enum UUID {
        public static let lightService = "8e1a0001-5b3c-4f2b-9d6e-1c2a3b4c5d6e"
        /// One byte, 0 or 1; write request or command.
        public static let lightOnOff = "8e1a0002-5b3c-4f2b-9d6e-1c2a3b4c5d6e"
        /// One byte, 0…255.
        public static let lightBrightness = "8e1a0003-5b3c-4f2b-9d6e-1c2a3b4c5d6e"
        /// UTF-8, up to 20 bytes; writes may use offsets.
        public static let lightScene = "8e1a0004-5b3c-4f2b-9d6e-1c2a3b4c5d6e"
        public static let streamService = "8e1a1001-5b3c-4f2b-9d6e-1c2a3b4c5d6e"
        /// Notifies a little-endian UInt32 counter (1, 2, 3, …) so that a client can check order and loss.
        public static let streamCounter = "8e1a1002-5b3c-4f2b-9d6e-1c2a3b4c5d6e"
    }

    public static var all: [DeviceProfile] {
        [heartRateMonitor, thermometer, light, batteryTag, renamingPhone, flakySensor, fastNotifier()]
    }

    /// A chest strap: Heart Rate (a measurement notified every second, the body sensor location, a
    /// write-only control point), Device Information and Battery.
    public static var heartRateMonitor: DeviceProfile {
        DeviceProfile(
            address: Address.heartRateMonitor, addressType: .random, name: "HRM Sim", appearance: 0x0341,
            txPower: 4, rssi: -58, advertisedServices: ["180D", "180F"], manufacturerData: [0x0059: [0x02, 0x00]],
            services: [
                genericAccess(name: "HRM Sim", appearance: 0x0341), genericAttribute,
                heartRateService,
                deviceInformation(manufacturer: "Sim Devices Inc.", model: "HRM-1"),
                ServiceProfile(
                    uuid: "180F",
                    characteristics: [CharacteristicProfile(uuid: "2A19", flags: [.read], value: [87], maxLength: 1)]),
            ])
    }

    /// A thermometer that indicates a temperature every second and puts it in its service data too.
    public static var thermometer: DeviceProfile {
        var profile = DeviceProfile(
            address: Address.thermometer, name: "Thermo Sim", appearance: 0x0300, rssi: -70,
            advertisedServices: ["1809"],
            services: [
                genericAccess(name: "Thermo Sim", appearance: 0x0300), genericAttribute,
                ServiceProfile(
                    uuid: "1809",
                    characteristics: [
                        CharacteristicProfile(
                            uuid: "2A1C", flags: [.indicate],
                            notifications: .init(every: .seconds(1)) { number in
                                // Flags 0 (Celsius, no time stamp, no type), then the IEEE-11073 FLOAT.
                                [0x00] + ieee11073Float(mantissa: bodyTemperatureTenths(number), exponent: -1)
                            }),
                        CharacteristicProfile(uuid: "2A1D", flags: [.read], value: [0x02], maxLength: 1),
                    ]),
                deviceInformation(manufacturer: "Sim Devices Inc.", model: "TH-2"),
            ])
        profile.advertisedData = { report in
            let tenths = bodyTemperatureTenths(report / 5)
            return DeviceProfile.AdvertisedData(
                serviceData: ["1809": [UInt8(truncatingIfNeeded: tenths), UInt8(truncatingIfNeeded: tenths >> 8)]])
        }
        return profile
    }

    /// A lamp with a vendor service: on/off (write request or command), brightness, and a scene name
    /// long enough for offset writes; reads return what was written, and each characteristic has a
    /// User Description.
    public static var light: DeviceProfile {
        DeviceProfile(
            address: Address.light, name: "Lamp Sim", appearance: 0x07C0, rssi: -50,
            advertisedServices: [UUID.lightService],
            services: [
                genericAccess(name: "Lamp Sim", appearance: 0x07C0), genericAttribute,
                ServiceProfile(
                    uuid: UUID.lightService,
                    characteristics: [
                        CharacteristicProfile(
                            uuid: UUID.lightOnOff, flags: [.read, .writeWithoutResponse, .write], value: [0],
                            maxLength: 1, descriptors: [.userDescription("On/Off")]),
                        CharacteristicProfile(
                            uuid: UUID.lightBrightness, flags: [.read, .write], value: [128], maxLength: 1,
                            descriptors: [.userDescription("Brightness")]),
                        CharacteristicProfile(
                            uuid: UUID.lightScene, flags: [.read, .write], value: Array("Evening".utf8),
                            maxLength: 20, descriptors: [.userDescription("Scene")]),
                    ]),
            ])
    }

    /// A key-finder tag: only Battery, its level notified every second (slowly falling), and
    /// manufacturer data that changes every third advertisement.
    public static var batteryTag: DeviceProfile {
        var profile = DeviceProfile(
            address: Address.batteryTag, addressType: .random, name: "Tag Sim", appearance: 0x0200, txPower: -8,
            rssi: -80, advertisedServices: ["180F"],
            services: [
                genericAccess(name: "Tag Sim", appearance: 0x0200), genericAttribute,
                ServiceProfile(
                    uuid: "180F",
                    characteristics: [
                        CharacteristicProfile(
                            uuid: "2A19", flags: [.read, .notify], value: [100], maxLength: 1,
                            notifications: .init(every: .seconds(1)) { number in [UInt8(max(1, 100 - number / 10))] })
                    ]),
            ])
        profile.advertisedData = { report in
            DeviceProfile.AdvertisedData(manufacturerData: [
                0xFFFF: [0x54, 0x41, 0x47, UInt8(truncatingIfNeeded: report / 3)]
            ])
        }
        return profile
    }

    /// A phone whose user keeps renaming it: Name and Alias change every 5 seconds.
    public static var renamingPhone: DeviceProfile {
        DeviceProfile(
            address: Address.renamingPhone, name: "Phone Sim",
            nameCycle: .init(names: ["Phone Sim", "Phone Sim (busy)", "Phone Sim (away)"], every: .seconds(5)),
            appearance: 0x0040, txPower: 0, rssi: -65,
            services: [
                genericAccess(name: "Phone Sim", appearance: 0x0040), genericAttribute,
                deviceInformation(manufacturer: "Sim Phones", model: "P-1"),
                ServiceProfile(
                    uuid: "180F",
                    characteristics: [CharacteristicProfile(uuid: "2A19", flags: [.read], value: [64], maxLength: 1)]),
            ])
    }

    /// A heart-rate sensor at the edge of range: every connection is lost (link supervision timeout)
    /// 10 seconds after it is made, in the middle of its notifications.
    public static var flakySensor: DeviceProfile {
        DeviceProfile(
            address: Address.flakySensor, name: "Flaky Sim", rssi: -88, advertisedServices: ["180D"],
            linkLossAfter: .seconds(10),
            services: [genericAccess(name: "Flaky Sim", appearance: 0x0340), genericAttribute, heartRateService])
    }

    /// A streaming sensor for load tests: a counter notified every `period`.
    public static func fastNotifier(period: DispatchTimeInterval = .milliseconds(20)) -> DeviceProfile {
        DeviceProfile(
            address: Address.fastNotifier, name: "Stream Sim", rssi: -45, advertisedServices: [UUID.streamService],
            services: [
                genericAccess(name: "Stream Sim", appearance: 0x0000), genericAttribute,
                ServiceProfile(
                    uuid: UUID.streamService,
                    characteristics: [
                        CharacteristicProfile(
                            uuid: UUID.streamCounter, flags: [.notify], maxLength: 4,
                            notifications: .init(every: period) { number in
                                littleEndian(UInt32(truncatingIfNeeded: number))
                            })
                    ]),
            ])
    }

    // MARK: Building blocks

    /// Heart Rate: the measurement (flags 0x06: 8-bit value, sensor contact detected; then the bpm)
    /// every second, Body Sensor Location (chest) and the Heart Rate Control Point, which may be
    /// written but not read.
    static var heartRateService: ServiceProfile {
        ServiceProfile(
            uuid: "180D",
            characteristics: [
                CharacteristicProfile(
                    uuid: "2A37", flags: [.notify],
                    notifications: .init(every: .seconds(1)) { number in [0x06, heartRate(number)] }),
                CharacteristicProfile(uuid: "2A38", flags: [.read], value: [0x01], maxLength: 1),
                CharacteristicProfile(uuid: "2A39", flags: [.write], value: [0x00], maxLength: 1),
            ])
    }

    /// Generic Access: Device Name and Appearance.
    static func genericAccess(name: String, appearance: UInt16) -> ServiceProfile {
        ServiceProfile(
            uuid: "1800",
            characteristics: [
                CharacteristicProfile(uuid: "2A00", flags: [.read], value: Array(name.utf8), maxLength: 248),
                CharacteristicProfile(uuid: "2A01", flags: [.read], value: littleEndian(appearance), maxLength: 2),
            ])
    }

    /// Generic Attribute: Service Changed (indications of a changed database, which never come here).
    static var genericAttribute: ServiceProfile {
        ServiceProfile(
            uuid: "1801",
            characteristics: [CharacteristicProfile(uuid: "2A05", flags: [.indicate], value: [], maxLength: 4)])
    }

    /// Device Information: Manufacturer Name String and Model Number String.
    static func deviceInformation(manufacturer: String, model: String) -> ServiceProfile {
        ServiceProfile(
            uuid: "180A",
            characteristics: [
                CharacteristicProfile(uuid: "2A29", flags: [.read], value: Array(manufacturer.utf8)),
                CharacteristicProfile(uuid: "2A24", flags: [.read], value: Array(model.utf8)),
            ])
    }

    /// The heart rate of the `number`-th measurement: it drifts between 62 and 102 bpm and back over
    /// 40 measurements, with a beat or two of jitter.
    public static func heartRate(_ number: Int) -> UInt8 {
        let phase = number % 40
        let drift = phase < 20 ? phase * 2 : (40 - phase) * 2
        return UInt8(62 + drift + (number * 7) % 3)
    }

    /// Body temperature in tenths of a degree, between 36.4 and 37.1 °C.
    static func bodyTemperatureTenths(_ number: Int) -> Int {
        let phase = number % 14
        return 364 + (phase < 7 ? phase : 14 - phase)
    }

    /// An IEEE-11073 32-bit FLOAT: a 24-bit signed mantissa and an 8-bit signed exponent, little-endian.
    static func ieee11073Float(mantissa: Int, exponent: Int8) -> [UInt8] {
        let bits = UInt32(bitPattern: Int32(mantissa)) & 0x00FF_FFFF | UInt32(UInt8(bitPattern: exponent)) << 24
        return littleEndian(bits)
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
