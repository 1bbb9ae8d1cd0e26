DROP INDEX fleet_maps_one_result_per_job;
CREATE UNIQUE INDEX fleet_maps_one_result_per_job ON fleet_maps (job_id) WHERE ok = 1 AND job_id <> 0
