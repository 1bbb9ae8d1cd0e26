CREATE TABLE fleet_maps (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	site TEXT NOT NULL,
	job_id BIGINT NOT NULL,
	attempt INTEGER NOT NULL,
	mapped_at TEXT NOT NULL,
	ok INTEGER NOT NULL,
	error_code TEXT NOT NULL,
	error TEXT NOT NULL,
	actions INTEGER NOT NULL,
	complete_actions INTEGER NOT NULL,
	complete_ids TEXT NOT NULL,
	confirmed INTEGER NOT NULL,
	completeness TEXT NOT NULL,
	graph TEXT NOT NULL,
	reconciled TEXT NOT NULL
);
CREATE UNIQUE INDEX fleet_maps_one_result_per_job ON fleet_maps (job_id) WHERE ok = 1;
CREATE INDEX fleet_maps_site ON fleet_maps (site, id)
