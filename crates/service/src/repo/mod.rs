//! Repositories: the queries, one module per aggregate. Each function takes any sea-orm
//! connection (the pool or a transaction) unless it must run inside a transaction, in
//! which case it takes a [`sea_orm::DatabaseTransaction`].

pub mod campaigns;
pub mod characters;
pub mod combats;
