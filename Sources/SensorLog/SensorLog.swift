// SensorLog module
