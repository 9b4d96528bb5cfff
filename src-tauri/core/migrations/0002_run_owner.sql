-- Which process is streaming a message. A process that opens the history recovers only the
-- `streaming` rows whose owner is no longer alive (see store/owner.rs), so a second process —
-- the command line beside the app — never cuts off a stream that is still running.

ALTER TABLE messages ADD COLUMN run_owner TEXT;
