extension StandardNames {
    /// GATT attribute-type declarations, `0x2800`–`0x2803`: what a GATT server's attribute table is made
    /// of, seen by tools that list raw attributes.
    static let declarations: [UInt16: String] = [
        0x2800: "Primary Service",
        0x2801: "Secondary Service",
        0x2802: "Include",
        0x2803: "Characteristic",
    ]

    /// GATT characteristic descriptors, `0x2900` and up.
    static let descriptors: [UInt16: String] = [
        0x2900: "Characteristic Extended Properties",
        0x2901: "Characteristic User Description",
        0x2902: "Client Characteristic Configuration",
        0x2903: "Server Characteristic Configuration",
        0x2904: "Characteristic Presentation Format",
        0x2905: "Characteristic Aggregate Format",
        0x2906: "Valid Range",
        0x2907: "External Report Reference",
        0x2908: "Report Reference",
        0x2909: "Number of Digitals",
        0x290A: "Value Trigger Setting",
        0x290B: "Environmental Sensing Configuration",
        0x290C: "Environmental Sensing Measurement",
        0x290D: "Environmental Sensing Trigger Setting",
        0x290E: "Time Trigger Setting",
        0x290F: "Complete BR-EDR Transport Block Data",
        0x2910: "Observation Schedule",
        0x2911: "Valid Range and Accuracy",
    ]
}
