CREATE INDEX fleet_maps_mapped_at ON fleet_maps (mapped_at)
