//! Operations: `/healthz` (gateway connected, database reachable) and `/metrics` (Prometheus
//! text) on an internal port, for Fly's health checks and scrapers. Never exposed publicly.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts, Registry, TextEncoder,
};
use service::Service;

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
    pub database_errors: IntCounter,
    pub gateway_connected: AtomicBool,
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
            HistogramOpts::new("gogobee_command_seconds", "Interaction to answer, in seconds").buckets(buckets.clone()),
            &["command"],
        )?;
        let active_combats = IntGauge::new("gogobee_active_combats", "Combats in progress (all processes)")?;
        let open_reaction_windows =
            IntGauge::new("gogobee_open_reaction_windows", "Reaction prompts waiting for a player")?;
        let timer_lag = Histogram::with_opts(
            HistogramOpts::new("gogobee_timer_lag_seconds", "Due to fired, in seconds").buckets(buckets),
        )?;
        let database_errors = IntCounter::new("gogobee_database_errors_total", "Database errors seen while serving")?;
        for collector in [
            Box::new(commands.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(latency.clone()),
            Box::new(active_combats.clone()),
            Box::new(open_reaction_windows.clone()),
            Box::new(timer_lag.clone()),
            Box::new(database_errors.clone()),
        ] {
            registry.register(collector)?;
        }
        Ok(Self {
            registry,
            commands,
            latency,
            active_combats,
            open_reaction_windows,
            timer_lag,
            database_errors,
            gateway_connected: AtomicBool::new(false),
        })
    }

    /// Records one handled interaction.
    pub fn interaction(&self, command: &str, outcome: &str, elapsed: Duration) {
        self.commands.with_label_values(&[command, outcome]).inc();
        self.latency
            .with_label_values(&[command])
            .observe(elapsed.as_secs_f64());
    }

    fn render(&self) -> String {
        let mut out = Vec::new();
        if TextEncoder::new().encode(&self.registry.gather(), &mut out).is_err() {
            return String::new();
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

type Shared = (Arc<Ops>, Service);

async fn healthz(State((ops, service)): State<Shared>) -> (StatusCode, String) {
    let gateway = ops.gateway_connected.load(Ordering::Relaxed);
    let database = service.ping().await.is_ok();
    let status = if gateway && database {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        format!(
            "gateway: {}\ndatabase: {}\n",
            if gateway { "connected" } else { "down" },
            if database { "ok" } else { "down" }
        ),
    )
}

async fn metrics(State((ops, service)): State<Shared>) -> String {
    match service.stats().await {
        Ok(stats) => {
            ops.active_combats
                .set(i64::try_from(stats.active_combats).unwrap_or(i64::MAX));
            ops.open_reaction_windows
                .set(i64::try_from(stats.open_reaction_windows).unwrap_or(i64::MAX));
        }
        Err(error) => {
            ops.database_errors.inc();
            tracing::warn!(%error, "metrics: could not read the database");
        }
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
