//! Operations: `/healthz` (each shard's gateway connection, the database) and `/metrics`
//! (Prometheus text) on an internal port, for Fly's health checks and scrapers. Never exposed
//! publicly.
//!
//! Metrics: interactions by command and outcome, their latency
//! (`gogobee_command_duration_seconds`), fights and reaction prompts in play, timer lag, every
//! database error the process met (`gogobee_database_errors_total`, counted where the service
//! turns them into errors), each shard's gateway state (`gogobee_gateway_connected{shard}`),
//! `gogobee_build_info{version}`, and the standard `process_*` figures read from `/proc/self`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use prometheus::{
    Encoder, Gauge, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};
use service::Service;

/// A shard's gateway connection as `/healthz` reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gateway {
    Connecting,
    Connected,
    Down,
}

impl Gateway {
    fn word(self) -> &'static str {
        match self {
            Self::Connecting => "connecting",
            Self::Connected => "connected",
            Self::Down => "down",
        }
    }
}

/// The bot's metrics and health flags.
pub struct Ops {
    registry: Registry,
    /// Interactions by command (or `button`) and outcome (`ok`, `refused`, `error`).
    pub commands: IntCounterVec,
    /// Seconds from receiving an interaction to answering it, by command.
    pub latency: HistogramVec,
    pub active_combats: IntGauge,
    pub open_reaction_windows: IntGauge,
    /// Seconds between a timer falling due and being fired.
    pub timer_lag: Histogram,
    /// Database errors: the service's count of every one ([`service::database_errors`]).
    database_errors: IntCounter,
    /// Each shard's gateway connection (1 connected, 0 not), by shard id.
    gateway: IntGaugeVec,
    shards: Mutex<BTreeMap<u32, Gateway>>,
    process: Process,
}

/// The `process_*` figures (as the Prometheus client libraries name them).
struct Process {
    cpu_seconds: Gauge,
    resident_bytes: IntGauge,
    virtual_bytes: IntGauge,
    open_fds: IntGauge,
    threads: IntGauge,
    start_time_seconds: Gauge,
}

impl Process {
    fn new(registry: &Registry) -> Result<Self> {
        let process = Self {
            cpu_seconds: Gauge::new(
                "process_cpu_seconds_total",
                "User and system CPU time spent, in seconds",
            )?,
            resident_bytes: IntGauge::new("process_resident_memory_bytes", "Resident memory size, in bytes")?,
            virtual_bytes: IntGauge::new("process_virtual_memory_bytes", "Virtual memory size, in bytes")?,
            open_fds: IntGauge::new("process_open_fds", "Open file descriptors")?,
            threads: IntGauge::new("process_threads", "OS threads")?,
            start_time_seconds: Gauge::new(
                "process_start_time_seconds",
                "Start time of the process since the Unix epoch, in seconds",
            )?,
        };
        for collector in [
            Box::new(process.cpu_seconds.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(process.resident_bytes.clone()),
            Box::new(process.virtual_bytes.clone()),
            Box::new(process.open_fds.clone()),
            Box::new(process.threads.clone()),
            Box::new(process.start_time_seconds.clone()),
        ] {
            registry.register(collector)?;
        }
        Ok(process)
    }

    /// Reads `/proc/self` (Linux; elsewhere the figures stay 0).
    fn update(&self) {
        // Linux's USER_HZ and page size on the platforms the image runs on.
        const TICKS: f64 = 100.0;
        const PAGE: i64 = 4096;
        if let Ok(stat) = std::fs::read_to_string("/proc/self/stat")
            && let Some((_, rest)) = stat.rsplit_once(") ")
        {
            // Fields after the name, numbered from 3 (`state`): utime 14, stime 15, threads 20,
            // starttime 22, vsize 23, rss 24.
            let field = |n: usize| {
                rest.split(' ')
                    .nth(n - 3)
                    .and_then(|v| v.parse::<f64>().ok())
                    .unwrap_or(0.0)
            };
            self.cpu_seconds.set((field(14) + field(15)) / TICKS);
            self.threads.set(field(20) as i64);
            self.virtual_bytes.set(field(23) as i64);
            self.resident_bytes.set(field(24) as i64 * PAGE);
            let boot = std::fs::read_to_string("/proc/stat").ok().and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("btime "))
                    .and_then(|b| b.trim().parse::<f64>().ok())
            });
            if let Some(boot) = boot {
                self.start_time_seconds.set(boot + field(22) / TICKS);
            }
        }
        if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
            self.open_fds.set(fds.count() as i64);
        }
    }
}

impl Ops {
    pub fn new() -> Result<Self> {
        let registry = Registry::new();
        let commands = IntCounterVec::new(
            Opts::new("gogobee_commands_total", "Interactions handled, by command and outcome"),
            &["command", "outcome"],
        )?;
        let buckets = vec![0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0];
        let latency = HistogramVec::new(
            HistogramOpts::new("gogobee_command_duration_seconds", "Interaction to answer, in seconds")
                .buckets(buckets.clone()),
            &["command"],
        )?;
        let active_combats = IntGauge::new("gogobee_active_combats", "Combats in progress (all processes)")?;
        let open_reaction_windows =
            IntGauge::new("gogobee_open_reaction_windows", "Reaction prompts waiting for a player")?;
        let timer_lag = Histogram::with_opts(
            HistogramOpts::new("gogobee_timer_lag_seconds", "Due to fired, in seconds").buckets(buckets),
        )?;
        let database_errors = IntCounter::new(
            "gogobee_database_errors_total",
            "Database errors this process met (every statement or connection that failed)",
        )?;
        let gateway = IntGaugeVec::new(
            Opts::new(
                "gogobee_gateway_connected",
                "Each shard's gateway connection: 1 connected, 0 not",
            ),
            &["shard"],
        )?;
        let build = IntGaugeVec::new(
            Opts::new(
                "gogobee_build_info",
                "The running build: always 1, labelled with its version",
            ),
            &["version"],
        )?;
        build.with_label_values(&[env!("CARGO_PKG_VERSION")]).set(1);
        for collector in [
            Box::new(commands.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(latency.clone()),
            Box::new(active_combats.clone()),
            Box::new(open_reaction_windows.clone()),
            Box::new(timer_lag.clone()),
            Box::new(database_errors.clone()),
            Box::new(gateway.clone()),
            Box::new(build),
        ] {
            registry.register(collector)?;
        }
        let process = Process::new(&registry)?;
        Ok(Self {
            registry,
            commands,
            latency,
            active_combats,
            open_reaction_windows,
            timer_lag,
            database_errors,
            gateway,
            shards: Mutex::new(BTreeMap::new()),
            process,
        })
    }

    /// Records one handled interaction.
    pub fn interaction(&self, command: &str, outcome: &str, elapsed: Duration) {
        self.commands.with_label_values(&[command, outcome]).inc();
        self.latency
            .with_label_values(&[command])
            .observe(elapsed.as_secs_f64());
    }

    /// Records shard `shard`'s gateway connection.
    pub fn shard(&self, shard: u32, state: Gateway) {
        self.shards
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(shard, state);
        self.gateway
            .with_label_values(&[&shard.to_string()])
            .set(i64::from(state == Gateway::Connected));
    }

    /// Each shard's state, by shard id (those heard of so far).
    pub fn shards(&self) -> BTreeMap<u32, Gateway> {
        self.shards
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    fn render(&self) -> String {
        let counted = service::database_errors();
        let shown = self.database_errors.get();
        if counted > shown {
            self.database_errors.inc_by(counted - shown);
        }
        self.process.update();
        let mut out = Vec::new();
        if TextEncoder::new().encode(&self.registry.gather(), &mut out).is_err() {
            return String::new();
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

type Shared = (Arc<Ops>, Service);

/// `/healthz`: one line per shard this process runs (`gateway shard N: connected`), and the
/// database; 200 when every shard is connected and the database answers.
async fn healthz(State((ops, service)): State<Shared>) -> (StatusCode, String) {
    let shards = ops.shards();
    let database = service.ping().await.is_ok();
    let connected = !shards.is_empty() && shards.values().all(|s| *s == Gateway::Connected);
    let status = if connected && database {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let mut body = format!(
        "gateway: {}\n",
        if connected {
            "connected"
        } else if shards.is_empty() {
            "connecting"
        } else {
            "down"
        }
    );
    for (shard, state) in &shards {
        let _ = writeln!(body, "gateway shard {shard}: {}", state.word());
    }
    let _ = writeln!(body, "database: {}", if database { "ok" } else { "down" });
    (status, body)
}

async fn metrics(State((ops, service)): State<Shared>) -> String {
    match service.stats().await {
        Ok(stats) => {
            ops.active_combats
                .set(i64::try_from(stats.active_combats).unwrap_or(i64::MAX));
            ops.open_reaction_windows
                .set(i64::try_from(stats.open_reaction_windows).unwrap_or(i64::MAX));
        }
        // Counted by the service, as every database error is.
        Err(error) => tracing::warn!(%error, "metrics: could not read the database"),
    }
    ops.render()
}

/// Serves `/healthz` and `/metrics` on `addr` until the process ends.
pub async fn serve(addr: SocketAddr, ops: Arc<Ops>, service: Service) -> Result<()> {
    let router = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .with_state((ops, service));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("binding the operations port {addr}"))?;
    tracing::info!(%addr, "operations endpoint: /healthz, /metrics");
    axum::serve(listener, router)
        .await
        .context("the operations endpoint stopped")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_name_latency_in_seconds_the_build_the_process_and_each_shard() {
        let ops = Ops::new().unwrap();
        ops.interaction("attack", "ok", Duration::from_millis(3));
        ops.shard(0, Gateway::Connected);
        ops.shard(1, Gateway::Down);
        // A database error anywhere in the service counts.
        let _ = service::ServiceError::from(sea_orm::DbErr::Custom("unreachable".into()));
        let text = ops.render();
        for line in [
            "gogobee_command_duration_seconds_count{command=\"attack\"} 1",
            "gogobee_gateway_connected{shard=\"0\"} 1",
            "gogobee_gateway_connected{shard=\"1\"} 0",
            &format!("gogobee_build_info{{version=\"{}\"}} 1", env!("CARGO_PKG_VERSION")),
        ] {
            assert!(text.contains(line), "{line} missing:\n{text}");
        }
        let errors = text
            .lines()
            .find_map(|l| l.strip_prefix("gogobee_database_errors_total "))
            .and_then(|n| n.parse::<u64>().ok());
        assert!(errors.is_some_and(|n| n >= 1), "{text}");
        let resident = text
            .lines()
            .find_map(|l| l.strip_prefix("process_resident_memory_bytes "))
            .and_then(|n| n.parse::<f64>().ok());
        assert!(resident.is_some_and(|b| b > 0.0), "{text}");
        assert!(text.contains("process_cpu_seconds_total "), "{text}");
        assert!(!text.contains("gogobee_command_seconds"), "{text}");
    }
}
